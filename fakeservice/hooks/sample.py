"""Payloads of test deliveries (``POST .../hooks/:hook_id/test/:trigger``): built from the
project's latest record of the kind, as the service does, or refused with its message
when there is none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.ci.models import jobs, pipelines
from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.hooks.payloads.ci import job_payload, pipeline_payload
from fakeservice.hooks.payloads.common import user_of
from fakeservice.hooks.payloads.issues import issue_payload
from fakeservice.hooks.payloads.merge_requests import merge_request_payload
from fakeservice.hooks.payloads.notes import note_payload
from fakeservice.hooks.payloads.push import push_payload
from fakeservice.hooks.payloads.releases import release_payload
from fakeservice.issues.models import issues
from fakeservice.merge_requests.models import merge_requests
from fakeservice.notes.models import notes
from fakeservice.projects.models import Project
from fakeservice.releases.models import releases
from fakeservice.repository.git import RefUpdate
from fakeservice.repository.models import find_repository

# API trigger name → (delivery trigger, what is missing when there is nothing to show)
TEST_TRIGGERS: dict[str, tuple[str, str]] = {
    "push_events": ("push_hooks", "Ensure the project has at least one commit."),
    "tag_push_events": ("tag_push_hooks", "Ensure the project has tags."),
    "issues_events": ("issue_hooks", "Ensure the project has issues."),
    "confidential_issues_events": ("confidential_issue_hooks", "Ensure the project has issues."),
    "note_events": ("note_hooks", "Ensure the project has notes."),
    "confidential_note_events": ("confidential_note_hooks", "Ensure the project has notes."),
    "merge_requests_events": ("merge_request_hooks", "Ensure the project has merge requests."),
    "job_events": ("job_hooks", "Ensure the project has CI jobs."),
    "pipeline_events": ("pipeline_hooks", "Ensure the project has CI pipelines."),
    "wiki_page_events": ("wiki_page_hooks", "Ensure the wiki is enabled and has pages."),
    "releases_events": ("release_hooks", "Ensure the project has releases."),
    "emoji_events": ("emoji_hooks", "Ensure the project has notes."),
}


def _latest(table: Any, index: str, key: Any) -> Any:
    """The last record of ``key``'s partition of ``index`` (no scan)."""
    return next(iter(table.select(index, [key], reverse=True)), None)


def _latest_note(store: Store, project: Project) -> Any:
    for table, kind in ((issues(store), "Issue"), (merge_requests(store), "MergeRequest")):
        record = _latest(table, "project_created_at", project.id)
        if record is not None:
            note = _latest(notes(store), "user_notes", (kind, record.id))
            if note is not None:
                return note
    return None


def _ref_sample(store: Store, project: Project, user: Any, url: str, tag: bool) -> Any:
    repo = find_repository(store, project)
    if repo is None or repo.is_empty:
        return None
    if tag:
        found = repo.tags()
        if not found:
            return None
        name = f"refs/tags/{found[-1].name}"
        head = found[-1].target
    else:
        name = f"refs/heads/{repo.default_branch}"
        head = repo.resolve(repo.default_branch) or ""
    info = repo.find_commit(head)
    before = info.parent_ids[0] if info is not None and info.parent_ids else "0" * 40
    update = RefUpdate(name, before if not tag else "0" * 40, head)
    return push_payload(store, project, repo, update, user, url, protected=False)


def sample_payload(
    store: Store, project: Project, trigger: str, user_id: int, url: str, now: Any
) -> dict[str, Any]:
    """The payload a test of ``trigger`` sends; 422 with the service's message if none."""
    user = user_of(store, user_id)
    builders: dict[str, Callable[[], Any]] = {
        "push_events": lambda: _ref_sample(store, project, user, url, False),
        "tag_push_events": lambda: _ref_sample(store, project, user, url, True),
        "issues_events": lambda: _with(
            _latest(issues(store), "project_created_at", project.id),
            lambda r: issue_payload(store, project, r, user, url, action="open", changes={}),
        ),
        "merge_requests_events": lambda: _with(
            _latest(merge_requests(store), "project_created_at", project.id),
            lambda r: merge_request_payload(
                store, project, r, user, url, action="open", changes={}
            ),
        ),
        "note_events": lambda: _with(
            _latest_note(store, project),
            lambda r: note_payload(store, project, r, None, user, url),
        ),
        "pipeline_events": lambda: _with(
            _latest(pipelines(store), "roots_by_id", project.id),
            lambda r: pipeline_payload(store, project, r, url, now),
        ),
        "job_events": lambda: _with(
            _latest(jobs(store), "builds_by_project", project.id),
            lambda r: job_payload(store, project, r, pipelines(store).get(r.pipeline_id), url, now),
        ),
        "releases_events": lambda: _with(
            _latest(releases(store), "by_created_at", project.id),
            lambda r: release_payload(store, project, r, "create", url),
        ),
    }
    builders["confidential_issues_events"] = builders["issues_events"]
    builders["confidential_note_events"] = builders["note_events"]
    build = builders.get(trigger)
    found = build() if build is not None else None
    if found is None:
        raise ApiError({"message": TEST_TRIGGERS[trigger][1]}, status=422)
    return found


def _with(record: Any, build: Callable[[Any], Any]) -> Any:
    return build(record) if record is not None else None
