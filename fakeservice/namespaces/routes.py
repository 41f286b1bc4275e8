"""Namespaces endpoints: ``GET /namespaces``, ``GET /namespaces/:id`` (integer id or
URL-encoded full path) and ``GET /namespaces/:id/exists``.

As the real service: every endpoint needs a signed-in caller. Administrators list every
namespace; everyone else lists their own namespace and the groups they are a direct
member of (``owned_only``: a direct Owner of), ordered by id. A user namespace can be
read by its owner and administrators, a group by whoever may see the group; anything
else is ``404 Namespace Not Found``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.core.store import Selection
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.groups.routes import fuzzy_match
from fakeservice.members.access import can_read_group, direct_group_levels, group_role
from fakeservice.members.models import OWNER
from fakeservice.namespaces.models import lookup, path_taken, suggest_path
from fakeservice.namespaces.views import namespace_entity
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("namespaces")


def _owns(ctx: Context, ns: Namespace) -> bool:
    if ctx.is_admin:
        return True
    if ns.is_group:
        return group_role(ctx.store, ctx.user, ns, ctx.now) >= OWNER
    return ctx.user is not None and ns.owner_id == ctx.user.id


def _can_read(ctx: Context, ns: Namespace) -> bool:
    if ns.is_group:
        return can_read_group(ctx.store, ctx.user, ns, ctx.now)
    return _owns(ctx, ns)


def _renderer(ctx: Context) -> Callable[[Namespace], dict[str, Any]]:
    def render(ns: Namespace) -> dict[str, Any]:
        return namespace_entity(ctx.store, ns, ctx.base_url, owner_view=_owns(ctx, ns))

    return render


def _selection(ctx: Context) -> Selection[Namespace]:
    table = namespaces(ctx.store)
    if ctx.is_admin:
        return table.select("all_by_id", ["all"])
    levels = direct_group_levels(ctx.store, ctx.user, ctx.now)
    if ctx.params["owned_only"]:
        levels = {gid: level for gid, level in levels.items() if level >= OWNER}
    ids = {ctx.user.namespace_id, *levels}
    return table.ordered([table.rows[i] for i in ids if i in table.rows], lambda n: ())


@api.get(
    "/namespaces",
    params=(
        Param("search", STR),
        Param("owned_only", BOOL, default=False),
        Param("top_level_only", BOOL, default=False),
    ),
    auth=REQUIRED,
    paginated=True,
)
def list_namespaces(ctx: Context) -> Any:
    """List the caller's namespaces (every namespace for administrators)."""
    p = ctx.params
    checks: list[Callable[[Namespace], bool]] = []
    if p.get("search"):
        query = p["search"]
        checks.append(lambda n: fuzzy_match(query, (n.name, n.path)))
    if p["top_level_only"]:
        checks.append(lambda n: n.parent_id is None)
    selection = _selection(ctx)
    if checks:
        selection = selection.filter(lambda n: all(check(n) for check in checks))
    return ctx.paginate(selection, _renderer(ctx))


def find_namespace_or_404(ctx: Context, key: str) -> Namespace:
    ns = lookup(ctx.store, key)
    if ns is None or not _can_read(ctx, ns):
        raise NotFound("Namespace")
    return ns


@api.get("/namespaces/:id", params=(Param("id", STR, required=True),), auth=REQUIRED)
def get_namespace(ctx: Context) -> Any:
    """Get a namespace by id or URL-encoded full path."""
    return _renderer(ctx)(find_namespace_or_404(ctx, ctx.params["id"]))


@api.get(
    "/namespaces/:id/exists",
    params=(Param("id", STR, required=True), Param("parent_id", INT)),
    auth=REQUIRED,
)
def namespace_exists(ctx: Context) -> Any:
    """Whether a path is taken (at the top level or under ``parent_id``), with a free one."""
    path, parent_id = ctx.params["id"], ctx.params.get("parent_id")
    exists = path_taken(ctx.store, path, parent_id)
    return {
        "exists": exists,
        "suggests": [suggest_path(ctx.store, path, parent_id)] if exists else [],
    }
