"""Epic records and the operations on them.

An epic belongs to a group and has a global ``id`` and a per-group ``iid``. Its
``start_date`` and ``due_date`` are composite: the fixed date when ``*_is_fixed``, else
the date inherited from its child epics (the earliest start, the latest due date).
``parent_id`` nests epics: the parent must be in the epic's group or one of its
ancestors, not the epic itself nor one of its descendants, and a confidential parent
takes only confidential children. State changes go through the epic machine.

Validation answers as the real service words it: ``{"message": {field: [...]}}``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.events import listeners
from fakeservice.core.store import Store, Table
from fakeservice.epics import issue_links
from fakeservice.epics.machines import EPIC_MACHINE
from fakeservice.groups.models import Namespace, namespaces, self_and_ancestor_ids

TABLE = "epics"
# listener(store, epic, before, user_id, now): the epic's label names changed (``before``:
# the old ones); an epic created with labels counts (``before`` empty)
EPIC_LABELS_CHANGED = "epic.labels_changed"
MAX_DESCRIPTION = 1_048_576
MAX_DEPTH = 7
ORDERS = ("created_at", "updated_at", "title")
SELF_PARENT = "This epic cannot be added. An epic cannot be added to itself."
ANCESTOR_PARENT = "This epic cannot be added. It is already an ancestor of the parent epic."
OTHER_GROUP_PARENT = (
    "This epic cannot be added. An epic must belong to the same group or subgroup as its "
    "parent epic."
)
NO_PARENT = "No matching epic found. Make sure that you are adding a valid epic URL."
DEPTH_PARENT = (
    "This epic cannot be added. One or more epics would exceed the maximum depth (7) from its "
    "most distant ancestor."
)
CONFIDENTIAL_PARENT = "A non-confidential epic cannot be assigned to a confidential parent epic"
CONFIDENTIAL_CHILDREN = (
    "Cannot make the epic confidential if it contains non-confidential child epics"
)


@attrs.define(slots=True)
class Epic:
    id: int
    iid: int
    group_id: int
    author_id: int
    title: str
    created_at: dt.datetime
    updated_at: dt.datetime
    description: str | None = None
    state: str = "opened"
    confidential: bool = False
    parent_id: int | None = None
    labels: list[str] = attrs.field(factory=list)
    start_date_is_fixed: bool = False
    start_date_fixed: dt.date | None = None
    due_date_is_fixed: bool = False
    due_date_fixed: dt.date | None = None
    closed_at: dt.datetime | None = None
    closed_by_id: int | None = None
    user_notes_count: int = 0


def epics(store: Store) -> Table[Epic]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    table = store.table(TABLE)
    table.add_unique("iid", lambda e: (e.group_id, e.iid))
    table.add_sorted("group_created_at", lambda e: e.group_id, lambda e: (e.created_at,))
    table.add_sorted("group_updated_at", lambda e: e.group_id, lambda e: (e.updated_at,))
    table.add_sorted("group_title", lambda e: e.group_id, lambda e: (e.title,))
    table.add_sorted("children", lambda e: e.parent_id)


def find(store: Store, group: Namespace, iid: int) -> Epic | None:
    return epics(store).by("iid", (group.id, iid))


def children(store: Store, epic: Epic) -> Iterator[Epic]:
    return iter(epics(store).select("children", [epic.id]))


def ancestors(store: Store, epic: Epic) -> Iterator[Epic]:
    table = epics(store)
    current = table.get(epic.parent_id)
    while current is not None:
        yield current
        current = table.get(current.parent_id)


def _depth_below(store: Store, epic: Epic) -> int:
    """Levels of the epic's subtree (1 for a leaf)."""
    kids = list(children(store, epic))
    return 1 + max((_depth_below(store, kid) for kid in kids), default=0)


# -- dates ----------------------------------------------------------------------------------


def inherited_start(store: Store, epic: Epic) -> dt.date | None:
    found = [d for d in (start_date(store, kid) for kid in children(store, epic)) if d]
    return min(found) if found else None


def inherited_due(store: Store, epic: Epic) -> dt.date | None:
    found = [d for d in (due_date(store, kid) for kid in children(store, epic)) if d]
    return max(found) if found else None


def start_date(store: Store, epic: Epic) -> dt.date | None:
    return epic.start_date_fixed if epic.start_date_is_fixed else inherited_start(store, epic)


def due_date(store: Store, epic: Epic) -> dt.date | None:
    return epic.due_date_fixed if epic.due_date_is_fixed else inherited_due(store, epic)


# -- validation -------------------------------------------------------------------------------


def parent_error(
    store: Store, epic: Epic | None, group: Namespace, parent: Epic | None
) -> str | None:
    """Why ``parent`` may not be the parent of ``epic`` (None when it may)."""
    if parent is None:
        return NO_PARENT
    if epic is not None and parent.id == epic.id:
        return SELF_PARENT
    if epic is not None and any(a.id == epic.id for a in ancestors(store, parent)):
        return ANCESTOR_PARENT
    if parent.group_id not in self_and_ancestor_ids(store, group):
        return OTHER_GROUP_PARENT
    below = _depth_below(store, epic) if epic is not None else 1
    if below + sum(1 for _ in ancestors(store, parent)) + 1 > MAX_DEPTH:
        return DEPTH_PARENT
    return None


def model_errors(
    store: Store, group: Namespace, epic: Epic | None, changes: Mapping[str, Any]
) -> dict[str, list[str]]:
    """Validation messages of creating (``epic`` None) or changing an epic."""
    errors: dict[str, list[str]] = {}
    title = changes.get("title", epic.title if epic else None)
    if title is None or not str(title).strip():
        errors["title"] = ["can't be blank"]
    elif len(title) > 255:
        errors["title"] = ["is too long (maximum is 255 characters)"]
    description = changes.get("description")
    if description is not None and len(description) > MAX_DESCRIPTION:
        errors["description"] = [f"is too long (maximum is {MAX_DESCRIPTION} characters)"]
    parent_id = changes.get("parent_id", epic.parent_id if epic else None)
    parent = epics(store).get(parent_id) if parent_id is not None else None
    if "parent_id" in changes and parent_id is not None:
        reason = parent_error(store, epic, group, parent)
        if reason:
            errors["parent"] = [reason]
    confidential = changes.get("confidential", epic.confidential if epic else False)
    if parent is not None and parent.confidential and not confidential:
        errors.setdefault("confidential", []).append(CONFIDENTIAL_PARENT)
    if confidential and epic is not None and any(not k.confidential for k in children(store, epic)):
        errors.setdefault("confidential", []).append(CONFIDENTIAL_CHILDREN)
    return errors


# -- operations -------------------------------------------------------------------------------


def create_epic(
    store: Store, group: Namespace, author_id: int, now: dt.datetime, fields: Mapping[str, Any]
) -> Epic:
    errors = model_errors(store, group, None, fields)
    if errors:
        raise ValidationFailed(errors)
    created = fields.get("created_at") or now
    epic = Epic(
        id=store.next_id(TABLE),
        iid=store.next_iid(TABLE, group.id),
        group_id=group.id,
        author_id=author_id,
        title=fields["title"],
        created_at=created,
        updated_at=created,
        description=fields.get("description"),
        confidential=bool(fields.get("confidential") or False),
        parent_id=fields.get("parent_id"),
        labels=normalized_labels(fields.get("labels") or []),
        start_date_is_fixed=bool(fields.get("start_date_is_fixed") or False),
        start_date_fixed=fields.get("start_date_fixed"),
        due_date_is_fixed=bool(fields.get("due_date_is_fixed") or False),
        due_date_fixed=fields.get("due_date_fixed"),
    )
    record = epics(store).insert(epic)
    _labels_changed(store, record, [], author_id, now)
    return record


def _labels_changed(
    store: Store, epic: Epic, before: list[str], user_id: int, now: dt.datetime
) -> None:
    if epic.labels != before:
        for listener in listeners(store, EPIC_LABELS_CHANGED):
            listener(store, epic, before, user_id, now)


def normalized_labels(names: Iterable[str]) -> list[str]:
    """Label names trimmed, without blanks or repeats, sorted (as the API lists them)."""
    return sorted({text for text in (str(name).strip() for name in names) if text})


def update_epic(
    store: Store,
    epic: Epic,
    now: dt.datetime,
    changes: Mapping[str, Any],
    *,
    user_id: int,
    state_event: str | None = None,
) -> Epic:
    """Validate, then apply ``changes`` and fire ``state_event`` (a no-op when the epic
    is already in that state, as the service does)."""
    group = namespaces(store).rows[epic.group_id]
    errors = model_errors(store, group, epic, changes)
    if errors:
        raise ValidationFailed(errors)
    table = epics(store)
    fields = dict(changes)
    updated = fields.pop("updated_at", None) or now
    before = list(epic.labels)
    if "labels" in fields:
        fields["labels"] = normalized_labels(fields["labels"] or [])
    table.update(epic, **fields, updated_at=updated)
    _labels_changed(store, epic, before, user_id, now)
    if state_event is not None and EPIC_MACHINE.can(epic, state_event):
        EPIC_MACHINE.fire(epic, state_event, now=now, user_id=user_id)
        table.reindex(epic)
    return epic


def delete_epic(store: Store, epic: Epic) -> None:
    """Delete an epic; its children lose their parent, its issues their epic."""
    table = epics(store)
    for child in list(children(store, epic)):
        table.update(child, parent_id=None)
    issue_links.forget_epic(store, epic.id)
    table.delete(epic)
