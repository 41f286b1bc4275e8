"""Share endpoints: ``POST /projects/:id/share`` and ``DELETE /projects/:id/share/:group_id``
(Maintainer; the answer is the link), ``POST /groups/:id/share`` and
``DELETE /groups/:id/share/:group_id`` (Owner; the answer is the group)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ApiError, NotFound
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.groups.models import Namespace, find_group, namespaces
from fakeservice.groups.routes import group_answer
from fakeservice.members.access import can_read_group
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.projects.models import projects
from fakeservice.sharing import models
from fakeservice.web.context import Context
from fakeservice.web.params import DATE, INT, STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("sharing")

ID = Param("id", STR, required=True)
SHARE_PARAMS = (
    ID,
    Param("group_id", INT, required=True),
    Param("group_access", INT, required=True, values=(10, 20, 30, 40, 50)),
    Param("expires_at", DATE),
)
GROUP_ID = Param("group_id", INT, required=True)


def _invited(ctx: Context) -> Namespace:
    """The invited group; ``404 Not Found`` (the service's link service) when the caller
    cannot read it."""
    group = find_group(ctx.store, ctx.params["group_id"])
    if group is None or not can_read_group(ctx.store, ctx.user, group, ctx.now):
        raise ApiError({"message": "Not Found"}, status=404)
    return group


@api.post("/projects/:id/share", params=SHARE_PARAMS, auth=REQUIRED)
def share_project(ctx: Context) -> Any:
    """Share a project with a group (201 with the link)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    p = ctx.params
    ns = namespaces(ctx.store).rows[project.namespace_id]
    if ns.is_group and ns.share_with_group_lock:
        raise ApiError({"message": models.SHARING_LOCKED}, status=400)
    group = _invited(ctx)
    models.project_share_errors(ctx.store, project, group)
    table = projects(ctx.store)
    entry = models.share(ctx.store, table, project, group, p["group_access"], p.get("expires_at"))
    expires = entry["expires_at"]
    return {
        "id": entry["id"],
        "project_id": project.id,
        "group_id": group.id,
        "group_access": entry["group_access_level"],
        "expires_at": expires.isoformat() if expires else None,
    }


@api.delete("/projects/:id/share/:group_id", params=(ID, GROUP_ID), auth=REQUIRED, status=204)
def unshare_project(ctx: Context) -> Any:
    """Stop sharing a project with a group (204; ``404 Group Link Not Found``)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    models.unshare(projects(ctx.store), project, ctx.params["group_id"], "Group Link")
    return None


@api.post("/groups/:id/share", params=SHARE_PARAMS, auth=REQUIRED)
def share_group(ctx: Context) -> Any:
    """Share a group with another group (201 with the group)."""
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, OWNER)
    p = ctx.params
    invited = find_group(ctx.store, p["group_id"])
    if invited is None or not can_read_group(ctx.store, ctx.user, invited, ctx.now):
        raise NotFound("Group")
    models.group_share_errors(ctx.store, group, invited)
    table = namespaces(ctx.store)
    models.share(ctx.store, table, group, invited, p["group_access"], p.get("expires_at"))
    return group_answer(ctx, group, with_projects=False)


@api.delete("/groups/:id/share/:group_id", params=(ID, GROUP_ID), auth=REQUIRED, status=204)
def unshare_group(ctx: Context) -> Any:
    """Stop sharing a group with another group (204; ``404 Not Found``)."""
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, OWNER)
    models.unshare(namespaces(ctx.store), group, ctx.params["group_id"], None)
    return None
