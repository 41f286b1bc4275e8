"""``PUT /projects/:id/transfer``: move a project to another namespace (Owner of the
project, allowed to create projects in the target).

The project's paths follow (``path_with_namespace``, ``name_with_namespace``, and with
them ``web_url`` and the git HTTP URLs); a project more visible than its new group takes
the group's visibility. Refusals are the service's 400
``Failed to transfer project {:new_namespace=>["<reason>"]}``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ApiError, NotFound
from fakeservice.groups.models import VISIBILITY_LEVEL, Namespace
from fakeservice.members.access import can_read_group
from fakeservice.members.models import OWNER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.projects.models import Project, find_project, projects
from fakeservice.projects.routes import may_create_in, namespace_by_key, project_detail
from fakeservice.web.context import Context
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("relocation")

INVALID = "is invalid"
SAME_NAMESPACE = "Project is already in this namespace."
TAKEN = "Project with same name or path in target namespace already exists"


def refused(reason: str) -> ApiError:
    return ApiError(
        {"message": f'Failed to transfer project {{:new_namespace=>["{reason}"]}}'}, status=400
    )


def target_namespace(ctx: Context, key: Any) -> Namespace:
    """The namespace of an id or a path the caller can see (``404 Namespace Not Found``)."""
    ns = namespace_by_key(ctx, key)
    if ns is None:
        raise NotFound("Namespace")
    if ns.is_group and not can_read_group(ctx.store, ctx.user, ns, ctx.now):
        raise NotFound("Namespace")
    if ns.kind == "user" and ns.owner_id != ctx.user.id and not ctx.is_admin:
        raise NotFound("Namespace")
    return ns


def transfer(ctx: Context, project: Project, ns: Namespace) -> None:
    """Check, then move ``project`` into ``ns``."""
    if not may_create_in(ctx, ns):
        raise refused(INVALID)
    if ns.id == project.namespace_id:
        raise refused(SAME_NAMESPACE)
    if find_project(ctx.store, f"{ns.full_path}/{project.path}") is not None:
        raise refused(TAKEN)
    visibility = project.visibility
    if ns.is_group and VISIBILITY_LEVEL[visibility] > VISIBILITY_LEVEL[ns.visibility]:
        visibility = ns.visibility
    projects(ctx.store).update(
        project,
        namespace_id=ns.id,
        path_with_namespace=f"{ns.full_path}/{project.path}",
        name_with_namespace=f"{ns.full_name} / {project.name}",
        visibility=visibility,
        updated_at=ctx.now,
    )


@api.put(
    "/projects/:id/transfer",
    params=(Param("id", STR, required=True), Param("namespace", STR, required=True)),
    auth=REQUIRED,
)
def transfer_project(ctx: Context) -> Any:
    """Transfer a project to another namespace (id or path)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, OWNER)
    ns = target_namespace(ctx, ctx.params["namespace"])
    transfer(ctx, project, ns)
    return project_detail(ctx, project)
