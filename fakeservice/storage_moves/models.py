"""Storage move records and the operations on them.

A move names its container (``kind`` and ``container_id``), the source storage (where the
container lived when the move was made) and the destination. It is created ``initial``
and scheduled at once; the background (:mod:`fakeservice.instance.background`) then runs
it to ``finished`` on the service clock, or the control plane fires its events one by
one. While a move is ``scheduled`` or ``started`` its container's repository is
read-only; on ``replicated`` the container lives on the destination.

Validation as the real service words it (``{"message": {field: [...]}}``): a
destination that is not a configured storage ``is not included in the list``; a
container that is already moving ``is read-only``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Selection, Store, Table
from fakeservice.instance.background import Worker, due_index, register_worker, schedule
from fakeservice.instance.models import storage_names
from fakeservice.instance.settings import preferred_storage
from fakeservice.projects.models import Project
from fakeservice.storage_moves.containers import ContainerKind
from fakeservice.storage_moves.machines import MOVE_MACHINE, NEXT_EVENT, READ_ONLY_STATES

TABLE = "repository_storage_moves"
NOT_INCLUDED = "is not included in the list"
READ_ONLY = "is read-only"


@attrs.define(slots=True)
class StorageMove:
    id: int
    kind: str
    container_id: int
    source_storage_name: str
    destination_storage_name: str
    created_at: dt.datetime
    updated_at: dt.datetime
    state: str = "initial"
    due_at: dt.datetime | None = None


def moves(store: Store) -> Table[StorageMove]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    table = store.table(TABLE)
    # newest first, as the service lists them (created_at, then id)
    table.add_sorted("kind", lambda m: m.kind, lambda m: (m.created_at,))
    table.add_sorted("container", lambda m: (m.kind, m.container_id), lambda m: (m.created_at,))
    table.add_sorted(
        "moving",
        lambda m: (m.kind, m.container_id) if m.state in READ_ONLY_STATES else None,
    )
    due_index(table)


def of_kind(store: Store, kind: str) -> Selection[StorageMove]:
    return moves(store).select("kind", [kind], reverse=True)


def of_container(store: Store, kind: str, container_id: int) -> Selection[StorageMove]:
    return moves(store).select("container", [(kind, container_id)], reverse=True)


def find(
    store: Store, kind: str, move_id: int, container_id: int | None = None
) -> StorageMove | None:
    found = moves(store).get(move_id)
    if found is None or found.kind != kind:
        return None
    if container_id is not None and found.container_id != container_id:
        return None
    return found


def read_only(store: Store, kind: str, container_id: Hashable) -> bool:
    """Whether a move of the container is under way (its repository is read-only)."""
    return bool(moves(store).sorted["moving"].part((kind, container_id)))


def project_read_only(store: Store, project: Project) -> bool:
    return read_only(store, "project", project.id)


def forget_project_moves(store: Store, project: Project) -> None:
    for move in list(of_container(store, "project", project.id)):
        moves(store).delete(move)


def errors_for(
    store: Store, kind: ContainerKind, container: Any, destination: str | None
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if destination is not None and destination not in storage_names(store):
        errors["destination_storage_name"] = [NOT_INCLUDED]
    if read_only(store, kind.name, container.id):
        errors[kind.name] = [READ_ONLY]
    return errors


def create_move(
    store: Store,
    kind: ContainerKind,
    container: Any,
    destination: str | None,
    now: dt.datetime,
    *,
    scheduled: bool = True,
) -> StorageMove:
    """Create a move (400 when invalid) and, unless ``scheduled`` is false, schedule it
    and hand it to the background. Without a destination the storage new repositories go
    to is chosen (another than the source when one has weight)."""
    errors = errors_for(store, kind, container, destination)
    if errors:
        raise ValidationFailed(errors)
    source = kind.storage_of(store, container)
    move = StorageMove(
        id=store.next_id(TABLE),
        kind=kind.name,
        container_id=container.id,
        source_storage_name=source,
        destination_storage_name=destination or preferred_storage(store, exclude=source),
        created_at=now,
        updated_at=now,
    )
    moves(store).insert(move)
    if scheduled:
        fire(store, move, "schedule", now)
        schedule(store, TABLE, move, now)
    return move


def schedule_bulk(
    store: Store, kind: ContainerKind, source: str, destination: str | None, now: dt.datetime
) -> list[StorageMove]:
    """Move every container on ``source`` that is not moving already."""
    scheduled: list[StorageMove] = []
    for container in kind.on_storage(store, source):
        if read_only(store, kind.name, container.id):
            continue
        scheduled.append(create_move(store, kind, container, destination, now))
    return scheduled


def fire(store: Store, move: StorageMove, event: str, when: dt.datetime) -> str:
    """Fire ``event`` on the move (``IllegalTransition`` when not allowed) and apply its
    effect: on ``replicated`` the container lives on the destination storage."""
    from fakeservice.storage_moves.containers import container_kind

    state = MOVE_MACHINE.fire(move, event)
    moves(store).update(move, updated_at=when)
    if state == "replicated":
        kind = container_kind(move.kind)
        container = kind.find(store, move.container_id) if kind is not None else None
        if kind is not None and container is not None:
            kind.set_storage(store, container, move.destination_storage_name)
    return state


def next_event(move: StorageMove) -> str | None:
    return NEXT_EVENT.get(move.state)


register_worker(Worker(TABLE, next_event, fire))
