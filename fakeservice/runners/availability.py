"""Which runners a project can use, and which of them picks a build up.

A project uses its own project runners, the group runners of its namespace and the
namespace's ancestors, and the instance runners (while ``shared_runners_enabled``). A
runner can run a build when it is active (not paused), has every tag of the build (an
untagged build needs ``run_untagged``), and, when ``ref_protected``, the build's ref is
a protected branch or tag. Among the runners that can, the lowest id picks the build up;
its ``maximum_timeout`` caps the build's timeout.
These functions answer the CI area's events (:mod:`fakeservice.ci.runner.assignment`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.models import Job
from fakeservice.core.store import Selection, Store
from fakeservice.groups.models import self_and_ancestor_ids
from fakeservice.projects.models import Project, namespace_of, projects
from fakeservice.repository import protected, protected_tags
from fakeservice.runners.models import INSTANCE, Runner, runners
from fakeservice.runners.views import runner_view


def available(store: Store, project: Project, *, instance: bool = True) -> Selection[Runner]:
    """The runners ``project`` may use, in id order (disjoint index partitions merged)."""
    table = runners(store)
    sources = [table.sorted["by_project"].part(project.id)]
    group_index = table.sorted["by_group"]
    sources.extend(
        group_index.part(group_id)
        for group_id in self_and_ancestor_ids(store, namespace_of(store, project))
    )
    if instance:
        sources.append(table.sorted["by_type"].part(INSTANCE))
    return Selection(table, sources)


def _protected_ref(store: Store, job: Job) -> bool:
    rules: Any = protected_tags.rules_for if job.tag else protected.rules_for
    return bool(rules(store, job.project_id, job.ref))


def can_run(store: Store, runner: Runner, job: Job) -> bool:
    """Whether ``runner`` may pick ``job`` up."""
    if not runner.active:
        return False
    if job.tag_list:
        if not set(job.tag_list) <= set(runner.tag_list):
            return False
    elif not runner.run_untagged:
        return False
    return runner.access_level != "ref_protected" or _protected_ref(store, job)


def runner_for(store: Store, job: Job) -> int | None:
    """The id of the runner that picks ``job`` up now, None when none can (stuck)."""
    project = projects(store).get(job.project_id)
    if project is None:
        return None
    for runner in available(store, project, instance=project.shared_runners_enabled):
        if can_run(store, runner, job):
            return runner.id
    return None


def picked(store: Store, job: Job, runner_id: int, now: dt.datetime) -> None:
    """The runner contacted the service to pick ``job`` up."""
    runner = runners(store).get(runner_id)
    if runner is not None:
        runners(store).update(runner, contacted_at=now)


def maximum_timeout(store: Store, runner_id: int) -> int | None:
    """The runner's ``maximum_timeout`` (seconds), which caps its jobs' timeout."""
    runner = runners(store).get(runner_id)
    return runner.maximum_timeout if runner is not None else None


def job_runner(store: Store, runner_id: int, now: dt.datetime) -> dict[str, Any] | None:
    """A job's ``runner``: the runner's list shape, None once the runner was deleted."""
    runner = runners(store).get(runner_id)
    return runner_view(runner, now) if runner is not None else None
