"""To-do records: something asking a user's attention (a target such as an issue), with
the action that made it, pending until marked done.

A user's to-dos are indexed per state (``user_state``), so ``GET /todos`` reads one
partition; one pending to-do per user and target (``pending``). ``state`` moves only
through :data:`MACHINE` (pending → done).
"""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.errors import NotModified
from fakeservice.core.machine import Machine
from fakeservice.core.store import Store, Table

PENDING, DONE = "pending", "done"
ACTIONS = (
    "assigned",
    "mentioned",
    "build_failed",
    "marked",
    "approval_required",
    "unmergeable",
    "directly_addressed",
    "merge_train_removed",
    "member_access_requested",
)
TYPES = (
    "Issue",
    "MergeRequest",
    "Commit",
    "Epic",
    "DesignManagement::Design",
    "AlertManagement::Alert",
    "Project",
    "Namespace",
    "Vulnerability",
    "WikiPage::Meta",
)

MACHINE = Machine("todo", (PENDING, DONE), (("mark_as_done", PENDING, DONE),), attribute="state")


@attrs.define(slots=True)
class Todo:
    id: int
    user_id: int
    author_id: int
    project_id: int
    target_type: str
    target_id: int
    action_name: str
    created_at: dt.datetime
    updated_at: dt.datetime
    state: str = PENDING


def todos(store: Store) -> Table[Todo]:
    return store.tables["todos"]


def install(store: Store) -> None:
    table = store.table("todos")
    table.add_sorted("user_state", lambda t: (t.user_id, t.state))
    table.add_unique(
        "pending",
        lambda t: (t.user_id, t.target_type, t.target_id) if t.state == PENDING else None,
    )


def mark(
    store: Store,
    now: dt.datetime,
    *,
    user_id: int,
    author_id: int,
    project_id: int,
    target_type: str,
    target_id: int,
    action_name: str = "marked",
) -> Todo:
    """A new pending to-do (304 when the user has one on the target already)."""
    if todos(store).by("pending", (user_id, target_type, target_id)) is not None:
        raise NotModified()
    todo = Todo(
        id=store.next_id("todos"),
        user_id=user_id,
        author_id=author_id,
        project_id=project_id,
        target_type=target_type,
        target_id=target_id,
        action_name=action_name,
        created_at=now,
        updated_at=now,
    )
    return todos(store).insert(todo)


def mark_done(store: Store, todo: Todo, now: dt.datetime) -> None:
    """Mark one pending to-do done (a done one stays as it is)."""
    if MACHINE.can(todo, "mark_as_done"):
        MACHINE.fire(todo, "mark_as_done")
        todos(store).update(todo, updated_at=now)
