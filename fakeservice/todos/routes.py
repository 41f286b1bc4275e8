"""To-do endpoints: ``GET /todos`` (the caller's, newest first; ``action``,
``author_id``, ``project_id``, ``group_id``, ``state``, ``type``), ``POST
/todos/:id/mark_as_done`` (201 with the to-do, as the service answers), ``POST /todos/mark_as_done`` (204, every
pending one) and ``POST /projects/:id/issues/:issue_iid/todo`` (201, or 304 when the
caller has a pending to-do on the issue already).

A to-do whose target is gone is left out of the list.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.groups.models import namespaces, self_and_ancestor_ids
from fakeservice.issues.routes import IID, PROJECT_ID, find_issue
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.projects.models import projects
from fakeservice.todos.models import ACTIONS, DONE, PENDING, TYPES, Todo, mark, mark_done, todos
from fakeservice.todos.views import target_of, todo_view
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("todos")

FILTERS = (
    Param("action", STR, values=ACTIONS),
    Param("author_id", INT),
    Param("project_id", INT),
    Param("group_id", INT),
    Param("state", STR, values=(PENDING, DONE)),
    Param("type", STR, values=TYPES),
)


def _under_group(ctx: Context, todo: Todo, group_id: int) -> bool:
    project = projects(ctx.store).get(todo.project_id)
    if project is None:
        return False
    space = namespaces(ctx.store).rows[project.namespace_id]
    return group_id in self_and_ancestor_ids(ctx.store, space)


def _matches(ctx: Context, todo: Todo) -> bool:
    p = ctx.params
    for name, value in (
        ("action", todo.action_name),
        ("author_id", todo.author_id),
        ("project_id", todo.project_id),
        ("type", todo.target_type),
    ):
        if p.get(name) is not None and p[name] != value:
            return False
    if p.get("group_id") is not None and not _under_group(ctx, todo, p["group_id"]):
        return False
    return target_of(ctx, todo) is not None


@api.route(
    "GET",
    "/todos",
    params=FILTERS,
    auth=REQUIRED,
    paginated=True,
    summary="List the caller's to-do items.",
)
def list_todos(ctx: Context) -> Any:
    """The caller's to-dos in one state (pending by default), newest first."""
    key = (ctx.user.id, ctx.params.get("state") or PENDING)
    selection = todos(ctx.store).select(
        "user_state", [key], where=lambda todo: _matches(ctx, todo), reverse=True
    )
    return ctx.paginate(selection, lambda todo: todo_view(ctx, todo))


@api.route(
    "POST",
    "/todos/:id/mark_as_done",
    params=(Param("id", INT, required=True),),
    auth=REQUIRED,
    summary="Mark a to-do item as done.",
)
def mark_one_done(ctx: Context) -> Any:
    """Mark one of the caller's to-dos done (201 with it; 404 for anyone else's)."""
    todo = todos(ctx.store).get(ctx.params["id"])
    if todo is None or todo.user_id != ctx.user.id or target_of(ctx, todo) is None:
        raise NotFound()
    mark_done(ctx.store, todo, ctx.now)
    return todo_view(ctx, todo)


@api.route(
    "POST",
    "/todos/mark_as_done",
    auth=REQUIRED,
    status=204,
    summary="Mark every pending to-do item as done.",
)
def mark_all_done(ctx: Context) -> Any:
    """Mark every pending to-do of the caller done (204)."""
    table = todos(ctx.store)
    for todo in list(table.select("user_state", [(ctx.user.id, PENDING)])):
        mark_done(ctx.store, todo, ctx.now)
    return None


@api.route(
    "POST",
    "/projects/:id/issues/:issue_iid/todo",
    params=(PROJECT_ID, IID),
    auth=REQUIRED,
    summary="Create a to-do item on an issue.",
)
def issue_todo(ctx: Context) -> Any:
    """A pending ``marked`` to-do for the caller on the issue (304 when one exists)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    record = find_issue(ctx, project, ctx.params["issue_iid"])
    todo = mark(
        ctx.store,
        ctx.now,
        user_id=ctx.user.id,
        author_id=ctx.user.id,
        project_id=project.id,
        target_type="Issue",
        target_id=record.id,
    )
    return todo_view(ctx, todo)
