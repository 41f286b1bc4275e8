"""Issuable change events: an update of an issue or a merge request reports the attributes
it changed (``before`` values), so that other areas can react without the update knowing
them (the notes area writes system notes)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from fakeservice.core.store import Store

TRACKED = ("title", "description", "assignee_ids", "reviewer_ids")
ChangeListener = Callable[[Store, str, Any, dict[str, Any], Any, dt.datetime], None]
_listeners: list[ChangeListener] = []


def on_change(listener: ChangeListener) -> ChangeListener:
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def snapshot(record: Any, names: Iterable[str] = TRACKED) -> dict[str, Any]:
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
    if not diff:
        return
    for listener in list(_listeners):
        listener(store, kind, record, diff, user, now)
