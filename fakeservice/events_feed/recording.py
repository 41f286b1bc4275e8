"""Turning the other areas' announcements into events: issues opened, closed and reopened
and notes written (``RECORD_EVENT``), merge requests opened, merged, closed and reopened
(``MR_EVENT``), and branch and tag pushes (``REFS_MOVED``, one event per ref, its
``push_data`` made when read: :mod:`.push_data`). System notes make no event."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.store import Store
from fakeservice.events_feed import models
from fakeservice.issues.models import issues
from fakeservice.merge_requests.models import merge_requests
from fakeservice.repository.models import RefChange

ISSUE = {
    "open": ("created", "opened"),
    "close": ("closed", "closed"),
    "reopen": ("reopened", "reopened"),
}
MERGE_REQUEST = {
    "created": ("created", "opened"),
    "merged": ("merged", "accepted"),
    "closed": ("closed", "closed"),
    "reopened": ("reopened", "reopened"),
}
NOTEABLES = {"Issue": issues, "MergeRequest": merge_requests}
KINDS = {"Issue": "issue", "MergeRequest": "merge_request"}


def record_event(
    store: Store, kind: str, record: Any, action: str, user_id: int | None, now: dt.datetime
) -> None:
    if user_id is None:
        return
    if kind == "Issue" and action in ISSUE:
        _target(store, record, "Issue", ISSUE[action], user_id, now, record.confidential)
    elif kind == "Note" and action == "create" and not record.system:
        _note(store, record, user_id, now)


def _target(
    store: Store,
    record: Any,
    target_type: str,
    action: tuple[str, str],
    user_id: int,
    now: dt.datetime,
    confidential: bool,
) -> None:
    """An event about an issue or a merge request (``action``: the filter's name, the
    shown one)."""
    models.add(
        store,
        project_id=record.project_id,
        author_id=user_id,
        action=action[0],
        action_name=action[1],
        target_type=target_type,
        target_kind=KINDS[target_type],
        target_id=record.id,
        target_iid=record.iid,
        target_title=record.title,
        created_at=now,
        confidential=confidential,
    )


def _note(store: Store, note: Any, user_id: int, now: dt.datetime) -> None:
    table = NOTEABLES.get(note.noteable_type)
    noteable = table(store).get(note.noteable_id) if table is not None else None
    hidden = bool(note.confidential or getattr(noteable, "confidential", False))
    models.add(
        store,
        project_id=note.project_id,
        author_id=user_id,
        action="commented",
        action_name="commented on",
        target_type=note.type or "Note",
        target_kind="note",
        target_id=note.id,
        target_iid=None,
        target_title=getattr(noteable, "title", None),
        created_at=now,
        confidential=hidden,
    )


def merge_request_event(store: Store, record: Any, event: str, user: Any, now: dt.datetime) -> None:
    if event not in MERGE_REQUEST or user is None:
        return
    _target(store, record, "MergeRequest", MERGE_REQUEST[event], user.id, now, False)


def refs_moved(change: RefChange) -> None:
    if change.user is None:
        return
    for update in change.updates:
        if update.branch is None and update.tag is None:
            continue
        shown = "pushed new" if update.created else "deleted" if update.deleted else "pushed to"
        models.add(
            change.store,
            project_id=change.project.id,
            author_id=change.user.id,
            action="pushed",
            action_name=shown,
            target_type=None,
            target_kind=None,
            target_id=None,
            target_iid=None,
            target_title=None,
            created_at=change.now,
            push=(update.ref, update.old, update.new),
        )
