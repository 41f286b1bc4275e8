"""Feature flag and user list records, and their tables.

Flags are listed by name per project (and per project and state for ``scope``), found
by ``(project, name)``; a flag is also indexed by the user lists its strategies use, so
a list in use is found without scanning. User lists are listed by id, found by
``(project, iid)`` and ``(project, name)``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from fakeservice.core.store import Store, Table

VERSION = "new_version_flag"


@attrs.define(slots=True)
class Scope:
    id: int
    environment_scope: str


@attrs.define(slots=True)
class Strategy:
    id: int
    name: str
    parameters: dict[str, Any]
    scopes: list[Scope] = attrs.field(factory=list)
    user_list_id: int | None = None


@attrs.define(slots=True)
class FeatureFlag:
    id: int
    project_id: int
    name: str
    description: str | None
    active: bool
    created_at: dt.datetime
    updated_at: dt.datetime
    strategies: list[Strategy] = attrs.field(factory=list)
    version: str = VERSION


@attrs.define(slots=True)
class UserList:
    id: int
    iid: int
    project_id: int
    name: str
    user_xids: str
    created_at: dt.datetime
    updated_at: dt.datetime


def flags(store: Store) -> Table[FeatureFlag]:
    return store.tables["feature_flags"]


def user_lists(store: Store) -> Table[UserList]:
    return store.tables["feature_flag_user_lists"]


def _lists_used(flag: FeatureFlag) -> list[int]:
    return [s.user_list_id for s in flag.strategies if s.user_list_id is not None]


def install(store: Store) -> None:
    (
        store.table("feature_flags")
        .add_sorted("project", lambda f: f.project_id, lambda f: (f.name,))
        .add_sorted("project_active", lambda f: (f.project_id, f.active), lambda f: (f.name,))
        .add_sorted("user_list", _lists_used, multi=True)
        .add_unique("name", lambda f: (f.project_id, f.name))
    )
    (
        store.table("feature_flag_user_lists")
        .add_sorted("project", lambda u: u.project_id)
        .add_unique("iid", lambda u: (u.project_id, u.iid))
        .add_unique("name", lambda u: (u.project_id, u.name))
    )
