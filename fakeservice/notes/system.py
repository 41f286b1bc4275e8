"""System notes (``system: true``) the service writes when something changes (seed 001
§6): ``added N commits`` on a push to a merge request's source branch, ``mentioned in
merge request !N`` on the issues a new merge request closes, and approvals. State,
label and milestone changes are resource events, not notes, as on the real service."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.store import Store
from fakeservice.merge_requests import operations
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.notes import models
from fakeservice.repository.models import RefChange


def write(
    store: Store,
    kind: str,
    record: Any,
    project_id: int,
    author_id: int,
    body: str,
    now: dt.datetime,
) -> None:
    models.create(
        store,
        kind=kind,
        noteable_id=record.id,
        noteable_iid=getattr(record, "iid", None),
        project_id=project_id,
        author_id=author_id,
        body=body,
        now=now,
        system=True,
    )


def _pushed(
    store: Store, project: Any, record: MergeRequest, change: RefChange, added: list[str]
) -> None:
    if not added:
        return
    author = change.user.id if change.user is not None else record.author_id
    lines = [f"* {sha[:8]} - {change.repo.get_commit(sha).title}" for sha in added]
    noun = "commit" if len(added) == 1 else "commits"
    body = f"added {len(added)} {noun}\n\n" + "\n".join(lines)
    write(store, "MergeRequest", record, project.id, author, body, change.now)


def _event(store: Store, record: MergeRequest, event: str, user: Any, now: dt.datetime) -> None:
    if event != "created":
        return
    project = operations.project_of(store, record)
    for issue in operations.closes_issues(store, record):
        body = f"mentioned in merge request !{record.iid}"
        write(store, "Issue", issue, project.id, user.id if user else record.author_id, body, now)


def _participants(store: Store, record: MergeRequest) -> list[int]:
    return models.author_ids(store, "MergeRequest", record.id)


def approval_note(
    store: Store, record: MergeRequest, user_id: int, approved: bool, now: dt.datetime
) -> None:
    body = "approved this merge request" if approved else "unapproved this merge request"
    write(store, "MergeRequest", record, record.project_id, user_id, body, now)


operations.on_push(_pushed)
operations.on_event(_event)
operations.add_participants(_participants)
