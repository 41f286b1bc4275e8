"""Turning announcements into resource events: an issue or a merge request opened with
labels or a milestone (``add`` events), labels and milestones changed by an update
(``ISSUABLE_RESOURCES_CHANGED``), issues closed and reopened (``RECORD_EVENT``) and merge
requests closed, reopened and merged (``MR_EVENT``). Nothing is recorded while a scenario
loads (seeded issuables have no history) nor without a user."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.store import Store
from fakeservice.resource_events import models
from fakeservice.scenarios.loader import loading

ISSUE_STATES = {"close": "closed", "reopen": "reopened"}
MERGE_REQUEST_STATES = {"closed": "closed", "reopened": "reopened", "merged": "merged"}


def _labels(
    store: Store, kind: str, record: Any, old: list[int], user_id: int, now: dt.datetime
) -> None:
    new = list(record.label_ids)
    changes = [("add", i) for i in new if i not in old] + [
        ("remove", i) for i in old if i not in new
    ]
    for action, label_id in changes:
        _add(store, "label", kind, record, user_id, now, action=action, target_id=label_id)


def _milestone(
    store: Store, kind: str, record: Any, old: int | None, user_id: int, now: dt.datetime
) -> None:
    new = record.milestone_id
    if old == new:
        return
    if old is not None:
        _add(store, "milestone", kind, record, user_id, now, action="remove", target_id=old)
    if new is not None:
        _add(store, "milestone", kind, record, user_id, now, action="add", target_id=new)


def _add(
    store: Store,
    event_kind: str,
    kind: str,
    record: Any,
    user_id: int,
    now: dt.datetime,
    **fields: Any,
) -> None:
    if event_kind != "label":
        fields.setdefault("state", record.state)
    models.add(
        store,
        event_kind,
        resource_type=kind,
        resource_id=record.id,
        user_id=user_id,
        created_at=now,
        **fields,
    )


def _opened(store: Store, kind: str, record: Any, user_id: int, now: dt.datetime) -> None:
    _labels(store, kind, record, [], user_id, now)
    _milestone(store, kind, record, None, user_id, now)


def record_event(
    store: Store, kind: str, record: Any, action: str, user_id: int | None, now: dt.datetime
) -> None:
    if kind != "Issue" or user_id is None or loading():
        return
    if action == "open":
        _opened(store, kind, record, user_id, now)
    elif action in ISSUE_STATES:
        _add(store, "state", kind, record, user_id, now, state=ISSUE_STATES[action])


def merge_request_event(store: Store, record: Any, event: str, user: Any, now: dt.datetime) -> None:
    if user is None or loading():
        return
    if event == "created":
        _opened(store, "MergeRequest", record, user.id, now)
    elif event in MERGE_REQUEST_STATES:
        state = MERGE_REQUEST_STATES[event]
        _add(store, "state", "MergeRequest", record, user.id, now, state=state)


def resources_changed(
    store: Store, kind: str, record: Any, before: dict[str, Any], user: Any, now: dt.datetime
) -> None:
    if user is None or loading():
        return
    if "label_ids" in before:
        _labels(store, kind, record, before["label_ids"], user.id, now)
    if "milestone_id" in before:
        _milestone(store, kind, record, before["milestone_id"], user.id, now)
