"""Resource event records: one table per kind (``label``, ``state``, ``milestone``), each
with its own id sequence, indexed by the issuable they are about (``(resource_type,
resource_id)``, in id order, which follows the service clock)."""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.store import Selection, Store, Table

KINDS = ("label", "state", "milestone")


@attrs.define(slots=True)
class ResourceEvent:
    id: int
    kind: str  # one of KINDS
    resource_type: str  # "Issue", "MergeRequest" or "Epic" (label events)
    resource_id: int
    user_id: int
    created_at: dt.datetime
    action: str | None = None  # "add" or "remove" (label and milestone events)
    target_id: int | None = None  # the label's or the milestone's id
    state: str | None = None  # a state event's state; a milestone event's issuable state
    label_name: str | None = None  # an epic's label (epic labels are names)


def table_name(kind: str) -> str:
    return f"resource_{kind}_events"


def events(store: Store, kind: str) -> Table[ResourceEvent]:
    return store.tables[table_name(kind)]


def install(store: Store) -> None:
    for kind in KINDS:
        store.table(table_name(kind)).add_sorted(
            "resource", lambda r: (r.resource_type, r.resource_id)
        )


def add(store: Store, kind: str, **fields: object) -> ResourceEvent:
    record = ResourceEvent(id=store.next_id(table_name(kind)), kind=kind, **fields)  # type: ignore[arg-type]
    return events(store, kind).insert(record)


def of_resource(
    store: Store, kind: str, resource_type: str, resource_id: int
) -> Selection[ResourceEvent]:
    """The events of one issuable, oldest first."""
    return events(store, kind).select("resource", [(resource_type, resource_id)])


def find(
    store: Store, kind: str, resource_type: str, resource_id: int, event_id: int
) -> ResourceEvent | None:
    """The event ``event_id`` if it is about that issuable."""
    found = events(store, kind).get(event_id)
    if found is None or (found.resource_type, found.resource_id) != (resource_type, resource_id):
        return None
    return found
