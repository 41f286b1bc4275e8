"""Pipeline trigger token records: a project's tokens, each owned by the user who made it.

A token's secret is ``glptt-`` and forty hex digits derived from its id, project and
creation time (the same scenario and requests give the same tokens); ``last_used`` is the
service-clock time of the last pipeline it triggered. A token past ``expires_at`` no
longer triggers anything. A deleted project takes its tokens.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import attrs

from fakeservice.core.store import Selection, Store, Table

PREFIX = "glptt-"
TABLE = "ci_triggers"


@attrs.define(slots=True)
class Trigger:
    id: int
    project_id: int
    owner_id: int
    token: str
    description: str
    created_at: dt.datetime
    updated_at: dt.datetime
    expires_at: dt.datetime | None = None
    last_used: dt.datetime | None = None


def triggers(store: Store) -> Table[Trigger]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    table = store.table(TABLE)
    table.add_sorted("project", lambda t: t.project_id, lambda t: (t.id,))
    table.add_unique("token", lambda t: t.token)


def of_project(store: Store, project_id: int) -> Selection[Trigger]:
    return triggers(store).select("project", [project_id])


def find(store: Store, project_id: int, trigger_id: int) -> Trigger | None:
    trigger = triggers(store).get(trigger_id)
    return trigger if trigger is not None and trigger.project_id == project_id else None


def by_token(store: Store, secret: str) -> Trigger | None:
    table = store.tables.get(TABLE)
    return None if table is None else table.by("token", secret)


def short_token(trigger: Trigger) -> str:
    """What callers other than the owner see: four characters after the prefix."""
    return trigger.token.removeprefix(PREFIX)[:4]


def expired(trigger: Trigger, now: dt.datetime) -> bool:
    return trigger.expires_at is not None and trigger.expires_at <= now


def _secret(trigger_id: int, project_id: int, now: dt.datetime) -> str:
    digest = hashlib.sha256(f"trigger:{trigger_id}:{project_id}:{now.isoformat()}".encode())
    return PREFIX + digest.hexdigest()[:40]


def create(
    store: Store, project_id: int, owner_id: int, now: dt.datetime, **fields: Any
) -> Trigger:
    trigger_id = store.next_id(TABLE)
    record = Trigger(
        id=trigger_id,
        project_id=project_id,
        owner_id=owner_id,
        token=fields.pop("token", None) or _secret(trigger_id, project_id, now),
        created_at=now,
        updated_at=now,
        **fields,
    )
    return triggers(store).insert(record)


def forget_project(store: Store, project: Any) -> None:
    """A deleted project takes its trigger tokens."""
    for trigger in list(of_project(store, project.id)):
        triggers(store).delete(trigger)
