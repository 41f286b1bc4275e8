"""Event records and their indexes.

An event is written once, when another area announces what happened, with what its list
items show (the target's title as it was then). Indexes: ``author`` and ``project``, each
partitioned by ``(owner, action, target_type filter)`` with ``None`` standing for "any",
so a list filtered by ``action`` and ``target_type`` reads one partition (ordered by id,
which follows the service clock); each also has a ``public`` twin without the events
about confidential issues.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable
from typing import Any

import attrs

from fakeservice.core.store import Selection, Store, Table

TABLE = "events"
PUBLIC = "public"
# the ``action`` filter's values and the ``target_type`` filter's (seed-free: the service's)
ACTIONS = (
    "approved",
    "closed",
    "commented",
    "created",
    "destroyed",
    "expired",
    "joined",
    "left",
    "merged",
    "pushed",
    "reopened",
    "updated",
)
TARGET_TYPES = (
    "issue",
    "milestone",
    "merge_request",
    "note",
    "project",
    "snippet",
    "user",
    "wiki",
    "design",
    "epic",
)


@attrs.define(slots=True)
class Event:
    id: int
    project_id: int | None
    author_id: int
    action: str  # one of ACTIONS
    action_name: str  # what lists show: "opened", "pushed to", "commented on"...
    target_type: str | None  # "Issue", "MergeRequest", "Note", "DiffNote"... or None
    target_kind: str | None  # the target_type filter's value: "issue", "note"...
    target_id: int | None
    target_iid: int | None
    target_title: str | None
    created_at: dt.datetime
    push: tuple[str, str, str] | None = None  # a push's (ref, old, new); push_data when read
    confidential: bool = False


def events(store: Store) -> Table[Event]:
    return store.tables[TABLE]


def _keys(owner: int | None, record: Event) -> list[Hashable]:
    """``(owner, action, kind)`` for every filter combination, and the same ending in
    ``"public"`` for an event that is not confidential (what non-Reporters read)."""
    if owner is None:
        return []
    keys: list[tuple[Any, ...]] = [(owner, None, None), (owner, record.action, None)]
    if record.target_kind is not None:
        keys += [(owner, None, record.target_kind), (owner, record.action, record.target_kind)]
    if not record.confidential:
        keys += [(*key, PUBLIC) for key in keys]
    return list(keys)


def install(store: Store) -> None:
    table = store.table(TABLE)
    table.add_sorted("author", lambda r: _keys(r.author_id, r), multi=True)
    table.add_sorted("project", lambda r: _keys(r.project_id, r), multi=True)


def add(store: Store, **fields: Any) -> Event:
    return events(store).insert(Event(id=store.next_id(TABLE), **fields))


def select(
    store: Store,
    index: str,
    owner: int,
    action: str | None,
    kind: str | None,
    *,
    newest_first: bool,
    public_only: bool,
) -> Selection[Event]:
    """Events of ``owner`` (an author or a project id) with the filters, by id; only the
    ones that are not confidential with ``public_only``."""
    key = (owner, action, kind, PUBLIC) if public_only else (owner, action, kind)
    return events(store).select(index, [key], reverse=newest_first)
