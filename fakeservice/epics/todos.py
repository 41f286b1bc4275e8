"""To-dos on epics (``POST /groups/:id/epics/:epic_iid/todo``): one pending to-do per
user and epic; asking again answers 304."""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from fakeservice.core.clock import iso
from fakeservice.core.errors import NotModified
from fakeservice.core.store import Store, Table
from fakeservice.epics.models import Epic
from fakeservice.epics.views import epic_view, epic_web_url, group_ref
from fakeservice.groups.models import namespaces
from fakeservice.users.models import users
from fakeservice.users.views import user_ref

TABLE = "epic_todos"


@attrs.define(slots=True)
class EpicTodo:
    id: int
    user_id: int
    epic_id: int
    author_id: int
    created_at: dt.datetime
    state: str = "pending"


def todos(store: Store) -> Table[EpicTodo]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    store.table(TABLE).add_unique(
        "pending", lambda t: (t.user_id, t.epic_id) if t.state == "pending" else None
    )


def mark(store: Store, epic: Epic, user_id: int, now: dt.datetime) -> EpicTodo:
    """A new pending to-do for ``user_id`` on ``epic`` (304 when one exists)."""
    if todos(store).by("pending", (user_id, epic.id)) is not None:
        raise NotModified()
    todo = EpicTodo(store.next_id("todos"), user_id, epic.id, user_id, now)
    return todos(store).insert(todo)


def todo_view(store: Store, todo: EpicTodo, epic: Epic, base_url: str) -> dict[str, Any]:
    group = namespaces(store).rows[epic.group_id]
    return {
        "id": todo.id,
        "group": group_ref(group, base_url),
        "author": user_ref(users(store).get(todo.author_id), base_url),
        "action_name": "marked",
        "target_type": "Epic",
        "target": epic_view(store, epic, base_url, can_edit=True),
        "target_url": epic_web_url(group, epic, base_url),
        "body": epic.title,
        "state": todo.state,
        "created_at": iso(todo.created_at),
        "updated_at": iso(todo.created_at),
    }
