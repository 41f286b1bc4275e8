"""Issuable change events: an update of an issue or a merge request reports the attributes
it changed (``before`` values), so that other areas can react without the update knowing
them (the notes area writes system notes): they listen to :data:`ISSUABLE_CHANGED`, and
to :data:`ISSUABLE_RESOURCES_CHANGED` for the label and milestone changes (resource
events, not notes or hooks' ``changes``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from fakeservice.core.events import listeners
from fakeservice.core.store import Store

TRACKED = ("title", "description", "assignee_ids", "reviewer_ids")
RESOURCES = ("label_ids", "milestone_id")
# listener(store, kind, record, before, user, now): ``before`` holds the changed attributes
ISSUABLE_CHANGED = "issuable.changed"
# the same for the changed ``RESOURCES`` attributes
ISSUABLE_RESOURCES_CHANGED = "issuable.resources_changed"
ChangeListener = Callable[[Store, str, Any, dict[str, Any], Any, dt.datetime], None]


def snapshot(record: Any, names: Iterable[str] = (*TRACKED, *RESOURCES)) -> dict[str, Any]:
    """The tracked attributes the record has (copied, so later changes do not leak in)."""
    out: dict[str, Any] = {}
    for name in names:
        if hasattr(record, name):
            value = getattr(record, name)
            out[name] = list(value) if isinstance(value, list) else value
    return out


def changed(
    store: Store, kind: str, record: Any, before: dict[str, Any], user: Any, now: dt.datetime
) -> None:
    """Tell the listeners which tracked attributes changed (nothing when none did)."""
    diff = {name: old for name, old in before.items() if getattr(record, name) != old}
    for event, names in ((ISSUABLE_CHANGED, TRACKED), (ISSUABLE_RESOURCES_CHANGED, RESOURCES)):
        part = {name: old for name, old in diff.items() if name in names}
        if part:
            for listener in listeners(store, event):
                listener(store, kind, record, part, user, now)
