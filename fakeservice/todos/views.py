"""JSON shape of a to-do: the project, the author, the action, the target rendered as
its own API shape, its web URL, the body (the target's title), state and times."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.issues.models import issues
from fakeservice.issues.views import issue_view
from fakeservice.merge_requests.models import merge_requests
from fakeservice.merge_requests.views import item_view
from fakeservice.projects.models import projects
from fakeservice.todos.models import Todo
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context

PROJECT_KEYS = ("id", "name", "name_with_namespace", "path", "path_with_namespace")

# target type -> (the record of an id or None, its API shape)
TARGETS: dict[str, tuple[Callable[[Context, int], Any], Callable[[Context, Any], Any]]] = {
    "Issue": (
        lambda ctx, key: issues(ctx.store).get(key),
        lambda ctx, record: issue_view(ctx.store, record, ctx.base_url, ctx.now),
    ),
    "MergeRequest": (
        lambda ctx, key: merge_requests(ctx.store).get(key),
        lambda ctx, record: item_view(ctx.store, record, ctx.base_url, ctx.now),
    ),
}


def target_of(ctx: Context, todo: Todo) -> Any:
    """The to-do's target record, or None when it is gone."""
    find, _ = TARGETS[todo.target_type]
    return find(ctx, todo.target_id)


def todo_view(ctx: Context, todo: Todo) -> dict[str, Any]:
    project = projects(ctx.store).rows[todo.project_id]
    _, render = TARGETS[todo.target_type]
    record = target_of(ctx, todo)
    target = render(ctx, record)
    return {
        "id": todo.id,
        "project": {key: getattr(project, key) for key in PROJECT_KEYS},
        "author": user_ref(users(ctx.store).get(todo.author_id), ctx.base_url),
        "action_name": todo.action_name,
        "target_type": todo.target_type,
        "target": target,
        "target_url": target["web_url"],
        "body": record.title,
        "state": todo.state,
        "created_at": iso(todo.created_at),
        "updated_at": iso(todo.updated_at),
    }
