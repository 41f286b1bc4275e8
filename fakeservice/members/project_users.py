"""``GET /projects/:id/users``: the users with access to a project (its direct members, the
members of its groups and of the groups it is shared with, its personal owner), by user id,
as the service lists them for mention and reviewer pickers; ``search`` (every word in the
name or username, or the exact public email) and ``skip_users[]`` narrow the list. Anyone
who can read the project may list them."""

from __future__ import annotations

from typing import Any

from fakeservice.members.models import PROJECT
from fakeservice.members.routes import all_members, api, user_matches
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Array, Param
from fakeservice.web.routing import PUBLIC


@api.get(
    "/projects/:id/users",
    params=(
        Param("id", STR, required=True, description="The ID or URL-encoded path of the project"),
        Param("search", STR),
        Param("skip_users", Array(INT, scalar=True, comma=True)),
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_project_users(ctx: Context) -> Any:
    """Users with access to the project, by id."""
    project = find_project_or_404(ctx, ctx.params["id"])
    table = users(ctx.store)
    skipped = set(ctx.params.get("skip_users") or ())
    query = (ctx.params.get("search") or "").strip()
    listed = [
        table.rows[user_id]
        for user_id in sorted(m.user_id for m in all_members(ctx, PROJECT, project))
        if user_id not in skipped and (not query or user_matches(table.rows[user_id], query))
    ]
    return ctx.paginate_list(listed, lambda user: user_ref(user, ctx.base_url))
