"""Membership records: a user's role in a project or a group (namespace).

Roles: Guest 10, Planner 15, Reporter 20, Developer 30, Maintainer 40, Owner 50.
"""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.store import Store, Table

GUEST, PLANNER, REPORTER, DEVELOPER, MAINTAINER, OWNER = 10, 15, 20, 30, 40, 50
ADMIN_LEVEL = 60
ROLE_NAMES = {
    0: "No access",
    5: "Minimal Access",
    GUEST: "Guest",
    PLANNER: "Planner",
    REPORTER: "Reporter",
    DEVELOPER: "Developer",
    MAINTAINER: "Maintainer",
    OWNER: "Owner",
    ADMIN_LEVEL: "Admin",
}
ROLE_BY_NAME = {name.lower(): level for level, name in ROLE_NAMES.items()}
PROJECT_LEVELS = (GUEST, PLANNER, REPORTER, DEVELOPER, MAINTAINER, OWNER)
GROUP_LEVELS = (5, GUEST, PLANNER, REPORTER, DEVELOPER, MAINTAINER, OWNER)

PROJECT = "project"
NAMESPACE = "namespace"


@attrs.define(slots=True)
class Member:
    id: int
    source_kind: str  # "project" or "namespace"
    source_id: int
    user_id: int
    access_level: int
    created_at: dt.datetime
    expires_at: dt.date | None = None
    created_by_id: int | None = None

    def active(self, now: dt.datetime) -> bool:
        return self.expires_at is None or now.date() < self.expires_at


def members(store: Store) -> Table[Member]:
    return store.tables["members"]


def install(store: Store) -> None:
    table = store.table("members")
    table.add_unique("source_user", lambda m: (m.source_kind, m.source_id, m.user_id))
    table.add_sorted("source", lambda m: (m.source_kind, m.source_id))
    table.add_sorted("user", lambda m: m.user_id)


def find_member(store: Store, kind: str, source_id: int, user_id: int) -> Member | None:
    return members(store).by("source_user", (kind, source_id, user_id))


def of_source(store: Store, kind: str, source_id: int) -> list[Member]:
    table = members(store)
    return [table.rows[e[-1]] for e in table.sorted["source"].part((kind, source_id))]


def of_user(store: Store, user_id: int) -> list[Member]:
    table = members(store)
    return [table.rows[e[-1]] for e in table.sorted["user"].part(user_id)]


def add_member(
    store: Store,
    now: dt.datetime,
    *,
    kind: str,
    source_id: int,
    user_id: int,
    access_level: int,
    expires_at: dt.date | None = None,
    created_by_id: int | None = None,
) -> Member:
    member = Member(
        id=store.next_id("members"),
        source_kind=kind,
        source_id=source_id,
        user_id=user_id,
        access_level=access_level,
        created_at=now,
        expires_at=expires_at,
        created_by_id=created_by_id,
    )
    members(store).insert(member)
    return member
