"""``assigned`` to-dos: an issue or merge request update that adds assignees gives each
new assignee (other than the user who made the change) a pending to-do, by listening to
:data:`~fakeservice.issues.events.ISSUABLE_CHANGED`. A user with a pending to-do on the
target already gets no second one."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.store import Store
from fakeservice.todos.models import mark as make_todo
from fakeservice.todos.models import todos

KINDS = ("Issue", "MergeRequest")


def assigned(
    store: Store, kind: str, record: Any, before: dict[str, Any], user: Any, now: dt.datetime
) -> None:
    if kind not in KINDS or "assignee_ids" not in before:
        return
    old = set(before["assignee_ids"] or ())
    for user_id in record.assignee_ids:
        if user_id in old or user_id == user.id:
            continue
        if todos(store).by("pending", (user_id, kind, record.id)) is not None:
            continue
        make_todo(
            store,
            now,
            user_id=user_id,
            author_id=user.id,
            project_id=record.project_id,
            target_type=kind,
            target_id=record.id,
            action_name="assigned",
        )
