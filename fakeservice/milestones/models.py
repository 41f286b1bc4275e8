"""Milestones of projects and groups: records, the active/closed machine and operations.

A project sees its own milestones and those of its ancestor groups. ``iid`` counts per
owner; titles are unique per owner.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.machine import Machine
from fakeservice.core.store import Selection, Store, Table, as_id
from fakeservice.labels.models import (  # the same owners: a project or group + ancestors
    GROUP,
    PROJECT,
    Owner,
    owners_of_group,
    owners_of_project,
)

__all__ = ["GROUP", "PROJECT", "Owner", "owners_of_group", "owners_of_project"]

MACHINE = Machine(
    "milestone",
    ("active", "closed"),
    (("close", "active", "closed"), ("activate", "closed", "active")),
    attribute="state",
)


@attrs.define(slots=True)
class Milestone:
    id: int
    iid: int
    owner_kind: str
    owner_id: int
    title: str
    description: str | None
    created_at: dt.datetime
    updated_at: dt.datetime
    due_date: dt.date | None = None
    start_date: dt.date | None = None
    state: str = "active"

    @property
    def owner(self) -> Owner:
        return (self.owner_kind, self.owner_id)


def milestones(store: Store) -> Table[Milestone]:
    return store.tables["milestones"]


def install(store: Store) -> None:
    table = store.table("milestones")
    table.add_unique("owner_title", lambda r: (r.owner_kind, r.owner_id, r.title))
    table.add_unique("owner_iid", lambda r: (r.owner_kind, r.owner_id, r.iid))
    table.add_sorted("owner", lambda r: (r.owner_kind, r.owner_id))


def of_owners(store: Store, owners: Iterable[Owner]) -> Selection[Milestone]:
    """Milestones of ``owners``, newest first (the service orders by id descending)."""
    return milestones(store).select("owner", list(owners), reverse=True)


def find(store: Store, owner: Owner, milestone_id: object) -> Milestone | None:
    found = milestones(store).get(as_id(milestone_id))
    return found if found is not None and found.owner == owner else None


def visible(store: Store, owners: Iterable[Owner], milestone_id: int | None) -> Milestone | None:
    """The milestone ``milestone_id`` when one of ``owners`` holds it."""
    found = milestones(store).get(milestone_id)
    return found if found is not None and found.owner in list(owners) else None


def by_title(store: Store, owners: Iterable[Owner], title: str) -> list[Milestone]:
    table = milestones(store)
    found = (table.by("owner_title", (*owner, title)) for owner in owners)
    return [m for m in found if m is not None]


def _dates_errors(start: dt.date | None, due: dt.date | None) -> dict[str, list[str]]:
    if start is not None and due is not None and due < start:
        return {"due_date": ["must be greater than start date"]}
    return {}


def _title_taken(store: Store, owner: Owner, title: str, own_id: int | None) -> bool:
    other = milestones(store).by("owner_title", (*owner, title))
    return other is not None and other.id != own_id


def create(
    store: Store,
    owner: Owner,
    now: dt.datetime,
    *,
    title: str,
    description: str | None = None,
    due_date: dt.date | None = None,
    start_date: dt.date | None = None,
) -> Milestone:
    errors: dict[str, list[str]] = {}
    if not title.strip():
        errors["title"] = ["can't be blank"]
    elif _title_taken(store, owner, title, None):
        errors["title"] = ["has already been taken"]
    errors.update(_dates_errors(start_date, due_date))
    if errors:
        raise ValidationFailed(errors)
    record = Milestone(
        id=store.next_id("milestones"),
        iid=store.next_iid("milestones", owner),
        owner_kind=owner[0],
        owner_id=owner[1],
        title=title,
        description=description,
        created_at=now,
        updated_at=now,
        due_date=due_date,
        start_date=start_date,
    )
    return milestones(store).insert(record)


def update(
    store: Store, record: Milestone, now: dt.datetime, fields: dict[str, object]
) -> Milestone:
    """Apply ``fields`` (title, description, dates, state_event) after validating them all."""
    title = fields.get("title", record.title)
    start = fields.get("start_date", record.start_date)
    due = fields.get("due_date", record.due_date)
    errors: dict[str, list[str]] = {}
    if not isinstance(title, str) or not title.strip():
        errors["title"] = ["can't be blank"]
    elif _title_taken(store, record.owner, title, record.id):
        errors["title"] = ["has already been taken"]
    errors.update(_dates_errors(start, due))  # type: ignore[arg-type]
    if errors:
        raise ValidationFailed(errors)
    event = fields.get("state_event")
    if isinstance(event, str) and MACHINE.can(record, event):
        MACHINE.fire(record, event)
    changes = {
        k: v for k, v in fields.items() if k in ("title", "description", "start_date", "due_date")
    }
    return milestones(store).update(record, updated_at=now, **changes)


def delete(store: Store, record: Milestone) -> None:
    milestones(store).delete(record)


def expired(record: Milestone, now: dt.datetime) -> bool:
    return record.due_date is not None and record.due_date < now.date()
