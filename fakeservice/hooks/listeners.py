"""What the hooks area hears from the others, turned into queued deliveries: pushes
(``REFS_MOVED``), merge request events and changes, issue, note, release and wiki page
and emoji events (``RECORD_EVENT``), CI job transitions and the deployments they move."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.ci.models import Job, pipelines
from fakeservice.core.store import Store
from fakeservice.environments.deployments import deployments, environments
from fakeservice.hooks.emit import base_url, emit, wants
from fakeservice.hooks.payloads.ci import job_payload
from fakeservice.hooks.payloads.common import project_of, user_of
from fakeservice.hooks.payloads.deployments import deployment_payload
from fakeservice.hooks.payloads.emoji import emoji_payload
from fakeservice.hooks.payloads.issues import changes_payload, issue_payload
from fakeservice.hooks.payloads.merge_requests import merge_request_payload
from fakeservice.hooks.payloads.notes import note_payload
from fakeservice.hooks.payloads.push import push_payload
from fakeservice.hooks.payloads.releases import release_payload
from fakeservice.hooks.payloads.wiki import wiki_payload
from fakeservice.hooks.pipelines import announce_pipeline, touch
from fakeservice.issues.models import issues
from fakeservice.merge_requests.models import merge_requests
from fakeservice.notes.models import notes
from fakeservice.repository import protected
from fakeservice.repository.models import RefChange

DEPLOYMENT_STATUSES = ("running", "success", "failed", "canceled")
MR_ACTIONS = {"created": "open", "merged": "merge", "closed": "close", "reopened": "reopen"}
ISSUE_ACTIONS = {"open": "open", "close": "close", "reopen": "reopen"}
STATE_IDS = {"close": (1, 2), "reopen": (2, 1)}  # opened 1, closed 2


def refs_moved(change: RefChange) -> None:
    store, project = change.store, change.project
    if base_url(store) is None:
        return
    for update in change.updates:
        branch, tag = update.branch, update.tag
        if branch is None and tag is None:
            continue
        trigger = "push_hooks" if branch is not None else "tag_push_hooks"
        is_protected = bool(branch and protected.rules_for(store, project.id, branch))

        def payload(url: str, update: Any = update, is_protected: bool = is_protected) -> Any:
            return push_payload(
                store, project, change.repo, update, change.user, url, protected=is_protected
            )

        emit(store, project, trigger, payload, change.now, branch=branch)


def merge_request_event(store: Store, record: Any, event: str, user: Any, now: dt.datetime) -> None:
    action = MR_ACTIONS.get(event)
    project = project_of(store, record.project_id)
    if action is None or project is None:
        return
    emit(
        store,
        project,
        "merge_request_hooks",
        lambda url: merge_request_payload(
            store, project, record, user, url, action=action, changes={}
        ),
        now,
    )


def issuable_changed(
    store: Store, kind: str, record: Any, before: dict[str, Any], user: Any, now: dt.datetime
) -> None:
    project = project_of(store, record.project_id)
    if project is None:
        return
    changes = changes_payload(record, before, now)
    if kind == "MergeRequest":
        emit(
            store,
            project,
            "merge_request_hooks",
            lambda url: merge_request_payload(
                store, project, record, user, url, action="update", changes=changes
            ),
            now,
        )
    elif kind == "Issue":
        _issue(store, project, record, user, "update", changes, now)


def _issue(
    store: Store,
    project: Any,
    record: Any,
    user: Any,
    action: str,
    changes: dict[str, Any],
    now: dt.datetime,
) -> None:
    trigger = "confidential_issue_hooks" if record.confidential else "issue_hooks"
    emit(
        store,
        project,
        trigger,
        lambda url: issue_payload(
            store, project, record, user, url, action=action, changes=changes
        ),
        now,
    )


def _note(store: Store, project: Any, note: Any, user: Any, now: dt.datetime) -> None:
    if note.system:
        return
    noteable: Any = None
    if note.noteable_type == "Issue":
        noteable = issues(store).get(note.noteable_id)
    elif note.noteable_type == "MergeRequest":
        noteable = merge_requests(store).get(note.noteable_id)
    secret = note.confidential or bool(getattr(noteable, "confidential", False))
    trigger = "confidential_note_hooks" if secret else "note_hooks"
    emit(
        store,
        project,
        trigger,
        lambda url: note_payload(store, project, note, noteable, user, url),
        now,
    )


Target = tuple[Any, str, Callable[[str], dict[str, Any]]]  # project, trigger, payload


def _wiki_page(store: Store, record: Any, action: str, user: Any) -> Target | None:
    wiki, page = record
    owner_kind, _, owner_id = wiki.key.partition(":")
    project = project_of(store, int(owner_id)) if owner_kind == "project" else None
    if project is None:
        return None
    return (
        project,
        "wiki_page_hooks",
        lambda url: wiki_payload(store, project, wiki, page, action, user, url),
    )


AWARDABLES = {"Issue": issues, "MergeRequest": merge_requests, "Note": notes}


def _emoji(store: Store, award: Any, _action: str, user: Any) -> Target | None:
    table = AWARDABLES.get(award.awardable_type)
    awarded = table(store).get(award.awardable_id) if table is not None else None
    project = project_of(store, getattr(awarded, "project_id", None))
    if project is None:
        return None
    return (
        project,
        "emoji_hooks",
        lambda url: emoji_payload(store, project, award, awarded, user, url),
    )


# records that do not carry their project: where their event goes
WITHOUT_PROJECT: dict[str, Callable[[Store, Any, str, Any], Target | None]] = {
    "WikiPage": _wiki_page,
    "AwardEmoji": _emoji,
}


def record_event(
    store: Store, kind: str, record: Any, action: str, user_id: int | None, now: Any
) -> None:
    if base_url(store) is None:
        return
    locate = WITHOUT_PROJECT.get(kind)
    if locate is not None:
        target = locate(store, record, action, user_of(store, user_id))
        if target is not None:
            emit(store, target[0], target[1], target[2], now)
        return
    project = project_of(store, getattr(record, "project_id", None))
    if project is None:
        return
    user = user_of(store, user_id)
    if kind == "Issue" and action in ISSUE_ACTIONS:
        changes: dict[str, Any] = {}
        if action in STATE_IDS:
            previous, current = STATE_IDS[action]
            changes = {"state_id": {"previous": previous, "current": current}}
        _issue(store, project, record, user, ISSUE_ACTIONS[action], changes, now)
    elif kind == "Note":
        _note(store, project, record, user, now)
    elif kind == "Release":
        emit(
            store,
            project,
            "release_hooks",
            lambda url: release_payload(store, project, record, action, url),
            now,
        )


def job_moved(store: Store, job: Job, now: dt.datetime) -> None:
    box_url = base_url(store)
    if box_url is None:
        return
    project = project_of(store, job.project_id)
    if project is None:
        return
    _deployment(store, project, job, now)
    pipeline = pipelines(store).get(job.pipeline_id)
    if pipeline is not None and wants(store, project, "pipeline_events"):
        # the status the pipeline took after the previous job's move
        announce_pipeline(store, pipeline, now)
        touch(store, job.pipeline_id)
    emit(
        store,
        project,
        "job_hooks",
        lambda url: job_payload(store, project, job, pipeline, url, now),
        now,
    )


def _deployment(store: Store, project: Any, job: Job, now: dt.datetime) -> None:
    """The job's deployment (made by ``environment:``) took the job's new status."""
    if job.environment is None or job.status not in DEPLOYMENT_STATUSES:
        return
    deployment = deployments(store).by("deployable", job.id)
    if deployment is None or deployment.status != job.status:
        return
    environment = environments(store).get(deployment.environment_id)
    emit(
        store,
        project,
        "deployment_hooks",
        lambda url: deployment_payload(store, project, deployment, environment, url, now),
        now,
    )


def job_created(store: Store, job: Job, now: dt.datetime) -> None:
    if base_url(store) is None:
        return
    project = project_of(store, job.project_id)
    if project is not None and wants(store, project, "pipeline_events"):
        touch(store, job.pipeline_id)
