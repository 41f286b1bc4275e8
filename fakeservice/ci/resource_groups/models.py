"""Resource group records and the rule they impose on jobs.

A job whose definition names a ``resource_group`` is made ready as
``waiting_for_resource`` (stage processing, ``play`` and a delayed job's due time fire
``request_resource``); the group's
record (``process_mode`` ``unordered`` by default) is made with the job's. A group holds
at most one job at a time: a job of the group that is ``preparing``, ``pending``,
``running`` or ``canceling`` holds it. Whenever a job of the group starts waiting or
completes, :func:`assign` gives the free group to its next waiting job (``enqueue``
through the job machine): the lowest job id (``unordered``), the oldest pipeline's
(``oldest_first``) or the newest pipeline's (``newest_first``) first.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from fakeservice.ci.flow import fire_job
from fakeservice.ci.models import Job, jobs
from fakeservice.core.store import Selection, Store, Table

TABLE = "ci_resource_groups"
PROCESS_MODES = ("unordered", "oldest_first", "newest_first")
HOLDING = frozenset({"preparing", "pending", "running", "canceling"})
WAITING = "waiting_for_resource"
_WAITING_INDEX = {
    "unordered": "resource_waiting",
    "oldest_first": "resource_waiting_oldest",
    "newest_first": "resource_waiting_newest",
}


@attrs.define(slots=True)
class ResourceGroup:
    id: int
    project_id: int
    key: str
    created_at: dt.datetime
    updated_at: dt.datetime
    process_mode: str = "unordered"


def resource_groups(store: Store) -> Table[ResourceGroup]:
    return store.tables[TABLE]


def _group_of(job: Job, statuses: frozenset[str]) -> tuple[int, str] | None:
    if job.resource_group and job.status in statuses and not job.retried:
        return (job.project_id, job.resource_group)
    return None


def install(store: Store) -> None:
    table = store.table(TABLE)
    table.add_unique("project_key", lambda g: (g.project_id, g.key))
    table.add_sorted("project", lambda g: g.project_id, lambda g: (g.id,))
    job_table = store.tables["ci_jobs"]
    waiting = frozenset({WAITING})
    job_table.add_sorted("resource_holding", lambda j: _group_of(j, HOLDING))
    job_table.add_sorted("resource_waiting", lambda j: _group_of(j, waiting))
    job_table.add_sorted(
        "resource_waiting_oldest", lambda j: _group_of(j, waiting), lambda j: (j.pipeline_id,)
    )
    job_table.add_sorted(
        "resource_waiting_newest", lambda j: _group_of(j, waiting), lambda j: (-j.pipeline_id,)
    )


def of_project(store: Store, project_id: int) -> Selection[ResourceGroup]:
    return resource_groups(store).select("project", [project_id])


def find(store: Store, project_id: int, key: str) -> ResourceGroup | None:
    return resource_groups(store).by("project_key", (project_id, key))


def ensure(store: Store, project_id: int, key: str, now: dt.datetime) -> ResourceGroup:
    """The project's group of ``key``, made when it is new."""
    found = find(store, project_id, key)
    if found is not None:
        return found
    record = ResourceGroup(
        id=store.next_id(TABLE), project_id=project_id, key=key, created_at=now, updated_at=now
    )
    return resource_groups(store).insert(record)


def upcoming(store: Store, group: ResourceGroup) -> Selection[Job]:
    """The group's waiting jobs in the order its ``process_mode`` gives them the group."""
    index = _WAITING_INDEX[group.process_mode]
    return jobs(store).select(index, [(group.project_id, group.key)])


def current(store: Store, group: ResourceGroup) -> Job | None:
    """The job holding the group, if any."""
    return current_of(store, group.project_id, group.key)


def busy(store: Store, job: Job) -> bool:
    """Whether another job holds ``job``'s group."""
    if not job.resource_group:
        return False
    holder = current_of(store, job.project_id, job.resource_group)
    return holder is not None and holder.id != job.id


def current_of(store: Store, project_id: int, key: str) -> Job | None:
    return next(iter(jobs(store).select("resource_holding", [(project_id, key)])), None)


def assign(store: Store, project_id: int, key: str, now: dt.datetime) -> None:
    """Give a free group to its next waiting job."""
    group = find(store, project_id, key)
    if group is None or jobs(store).size("resource_holding", (project_id, key)):
        return
    following = next(iter(upcoming(store, group)), None)
    if following is not None:
        fire_job(store, following, "enqueue", now)


def on_job_created(store: Store, job: Job, now: dt.datetime) -> None:
    """The ``JOB_CREATED`` listener: a job of a new group makes the group."""
    if job.resource_group:
        ensure(store, job.project_id, job.resource_group, now)


def on_job_moved(store: Store, job: Job, now: dt.datetime) -> None:
    """The ``JOB_MOVED`` listener: a job starting to wait, or letting go, may free a turn."""
    if job.resource_group and (job.status == WAITING or job.status not in HOLDING):
        assign(store, job.project_id, job.resource_group, now)


def forget_project(store: Store, project: Any) -> None:
    """A deleted project takes its resource groups."""
    for group in list(of_project(store, project.id)):
        resource_groups(store).delete(group)
