"""``POST /groups/:id/transfer`` (``group_id``: the new parent; none: to the top level)
and ``GET /groups/:id/transfer_locations``.

Owner of the group; the caller must be allowed to create subgroups in the new parent (or
top-level groups). The group, its subgroups and their projects take their new paths
(:data:`~fakeservice.groups.models.NAMESPACE_MOVED` for each namespace); a group more
visible than its new parent takes the parent's visibility with everything inside it.
Refusals are the service's 400 ``Transfer failed: <reason>``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ApiError, NotFound
from fakeservice.core.store import Selection
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.groups.models import (
    VISIBILITY_LEVEL,
    Namespace,
    descendants,
    find_group,
    find_namespace,
    namespaces,
    refresh_paths,
)
from fakeservice.groups.routes import group_answer
from fakeservice.groups.views import group_view
from fakeservice.members.access import authorized_groups, can_read_group, group_role
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.models import find_project, projects
from fakeservice.relocation.projects import api
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

ALREADY_ROOT = "Group is already a root group."
SAME_PARENT = "Group is already associated to the parent group."
NO_PERMISSION = "You don't have enough permissions."
SAME_PATH = "The parent group already has a subgroup or a project with the same path."
TO_SUBGROUP = "Cannot transfer group to one of its subgroup."


def refused(reason: str) -> ApiError:
    return ApiError({"message": f"Transfer failed: {reason}"}, status=400)


def may_create_subgroup(ctx: Context, parent: Namespace | None) -> bool:
    """``create_subgroup`` in ``parent`` (``create_group`` for the top level)."""
    if ctx.is_admin:
        return True
    if parent is None:
        return bool(ctx.user.can_create_group)
    needed = OWNER if parent.subgroup_creation_level == "owner" else MAINTAINER
    return group_role(ctx.store, ctx.user, parent, ctx.now) >= needed


def transfer_errors(ctx: Context, group: Namespace, parent: Namespace | None) -> None:
    """Raise the first refusal, in the service's order."""
    if parent is None and group.parent_id is None:
        raise refused(ALREADY_ROOT)
    if parent is not None and parent.id == group.parent_id:
        raise refused(SAME_PARENT)
    if not may_create_subgroup(ctx, parent):
        raise refused(NO_PERMISSION)
    full_path = f"{parent.full_path}/{group.path}" if parent else group.path
    if find_namespace(ctx.store, full_path) is not None or (
        parent is not None and find_project(ctx.store, full_path) is not None
    ):
        raise refused(SAME_PATH)
    if parent is not None and parent.id in {
        group.id,
        *(d.id for d in descendants(ctx.store, group)),
    }:
        raise refused(TO_SUBGROUP)


def move(ctx: Context, group: Namespace, parent: Namespace | None) -> None:
    """Re-parent ``group`` (checked already), narrowing visibility under the new parent."""
    table = namespaces(ctx.store)
    if (
        parent is not None
        and VISIBILITY_LEVEL[group.visibility] > VISIBILITY_LEVEL[parent.visibility]
    ):
        level = VISIBILITY_LEVEL[parent.visibility]
        project_table = projects(ctx.store)
        for ns in (group, *descendants(ctx.store, group)):
            if VISIBILITY_LEVEL[ns.visibility] > level:
                table.update(ns, visibility=parent.visibility)
            for entry in list(project_table.sorted["ns_by_id"].part(ns.id)):
                project = project_table.rows[entry[-1]]
                if VISIBILITY_LEVEL[project.visibility] > level:
                    project_table.update(project, visibility=parent.visibility)
    table.update(group, parent_id=parent.id if parent else None, updated_at=ctx.now)
    refresh_paths(ctx.store, group)


@api.post(
    "/groups/:id/transfer",
    params=(Param("id", STR, required=True), Param("group_id", INT)),
    auth=REQUIRED,
)
def transfer_group(ctx: Context) -> Any:
    """Move a group under another group, or to the top level (201 with the group)."""
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, OWNER)
    parent = None
    if ctx.params.get("group_id") is not None:
        parent = find_group(ctx.store, ctx.params["group_id"])
        if parent is None or not can_read_group(ctx.store, ctx.user, parent, ctx.now):
            raise NotFound("Group")
    transfer_errors(ctx, group, parent)
    move(ctx, group, parent)
    return group_answer(ctx, group, with_projects=False)


@api.get(
    "/groups/:id/transfer_locations",
    params=(Param("id", STR, required=True), Param("search", STR)),
    auth=REQUIRED,
    paginated=True,
)
def transfer_locations(ctx: Context) -> Any:
    """The groups the group may move under: where the caller may create subgroups,
    except the group, its subgroups and its current parent; by name."""
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, OWNER)
    table = namespaces(ctx.store)
    excluded = {group.id, group.parent_id, *(d.id for d in descendants(ctx.store, group))}
    if ctx.is_admin:
        selection: Selection[Namespace] = table.select("groups_by_name", ["all"])
    else:
        levels = authorized_groups(ctx.store, ctx.user, ctx.now)
        selection = table.ordered([table.rows[gid] for gid in levels], lambda n: (n.name.lower(),))
    needle = (ctx.params.get("search") or "").lower()
    selection = selection.filter(
        lambda ns: (
            ns.id not in excluded
            and may_create_subgroup(ctx, ns)
            and (not needle or needle in ns.name.lower() or needle in ns.path.lower())
        )
    )
    return ctx.paginate(selection, lambda ns: group_view(ctx.store, ns, ctx.base_url))
