"""Label endpoints of projects (``/projects/:id/labels``) and groups (``/groups/:id/labels``):
list, get, create, update and delete. Reading needs read access to the owner; writing
needs the Reporter role (as the real service's ``admin_label``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.labels import models
from fakeservice.labels.views import label_view
from fakeservice.members.models import REPORTER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, AtLeastOne, ExactlyOne, Param
from fakeservice.web.routing import PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("labels")

PROJECT_ID = Param(
    "id", STR, required=True, description="The ID or URL-encoded path of the project"
)
GROUP_ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the group")
LABEL_ID = Param("label_id", STR, required=True, description="The id or name of the label")
EDITS = ("new_name", "color", "description", "priority")


def _project_scope(ctx: Context, write: bool) -> tuple[models.Owner, list[models.Owner]]:
    project = find_project_or_404(ctx, ctx.params["id"])
    if write:
        require_access(ctx, project, REPORTER)
    owners = models.owners_of_project(ctx.store, project)
    if not ctx.params.get("include_ancestor_groups", True) and not write:
        owners = owners[:1]
    return owners[0], owners


def _group_scope(ctx: Context, write: bool) -> tuple[models.Owner, list[models.Owner]]:
    group = find_group_or_404(ctx, ctx.params["id"])
    if write:
        require_group_access(ctx, group, REPORTER)
    owners = models.owners_of_group(ctx.store, group.id)
    if not ctx.params.get("include_ancestor_groups", True) or write:
        owners = owners[:1]
    return owners[0], owners


Scope = Callable[[Context, bool], tuple[models.Owner, list[models.Owner]]]


def _label(ctx: Context, scope: Scope, write: bool) -> models.Label:
    own, owners = scope(ctx, write)
    label = models.find(ctx.store, [own] if write else owners, ctx.params["label_id"])
    if label is None:
        raise NotFound("Label")
    return label


def _declare(base: str, owner_param: Param, scope: Scope, *, project: bool) -> None:
    """Declare the five label endpoints under ``base`` for one kind of owner."""
    ancestors = Param("include_ancestor_groups", BOOL, default=True)
    priority = (Param("priority", INT, description="Priority (project labels only)"),)
    extra = priority if project else ()

    @api.get(
        base,
        params=(
            owner_param,
            Param("with_counts", BOOL, default=False),
            ancestors,
            Param("search", STR),
        ),
        auth=PUBLIC,
        paginated=True,
    )
    def list_labels(ctx: Context) -> Any:
        """List labels, the owner's own then its ancestors' (by name)."""
        _, owners = scope(ctx, False)
        selection = models.of_owners(ctx.store, owners)
        search = (ctx.params.get("search") or "").lower()
        if search:
            selection = selection.filter(
                lambda r: search in r.name.lower() or search in (r.description or "").lower()
            )
        counts = bool(ctx.params.get("with_counts"))
        return ctx.paginate(selection, lambda r: label_view(ctx.store, r, with_counts=counts))

    @api.get(base + "/:label_id", params=(owner_param, LABEL_ID, ancestors), auth=PUBLIC)
    def get_label(ctx: Context) -> Any:
        """Get one label by id or name."""
        return label_view(ctx.store, _label(ctx, scope, False))

    @api.post(
        base,
        params=(
            owner_param,
            Param("name", STR, required=True),
            Param("color", STR, required=True),
            Param("description", STR),
            *extra,
        ),
        auth=REQUIRED,
    )
    def create_label(ctx: Context) -> Any:
        """Create a label (409 when the name is taken)."""
        own, _ = scope(ctx, True)
        p = ctx.params
        label = models.create(
            ctx.store,
            own,
            ctx.now,
            name=p["name"] or "",
            color=p["color"],
            description=p.get("description"),
            priority=p.get("priority"),
        )
        return label_view(ctx.store, label)

    edits = (
        Param("new_name", STR),
        Param("color", STR),
        Param("description", STR),
        *extra,
    )
    at_least = AtLeastOne(EDITS if project else EDITS[:3])
    by_name = (
        Param("label_id", STR, description="The id or name of the label"),
        Param("name", STR, description="The name of the label"),
    )

    @api.put(
        base,
        params=(owner_param, *by_name, *edits),
        constraints=(ExactlyOne(("label_id", "name")), at_least),
        auth=REQUIRED,
    )
    def update_label_by_name(ctx: Context) -> Any:
        """Update a label named in the body (the older form python-gitlab uses)."""
        ctx.params.setdefault("label_id", ctx.params.get("name"))
        return update_label(ctx)

    @api.delete(
        base,
        params=(owner_param, *by_name),
        constraints=(ExactlyOne(("label_id", "name")),),
        auth=REQUIRED,
    )
    def delete_label_by_name(ctx: Context) -> Any:
        """Delete a label named in the query (the older form)."""
        ctx.params.setdefault("label_id", ctx.params.get("name"))
        models.delete(ctx.store, _label(ctx, scope, True))

    @api.put(
        base + "/:label_id",
        params=(owner_param, LABEL_ID, *edits),
        constraints=(at_least,),
        auth=REQUIRED,
    )
    def update_label(ctx: Context) -> Any:
        """Rename or recolour a label."""
        label = _label(ctx, scope, True)
        p = ctx.params
        models.update(
            ctx.store,
            label,
            new_name=p.get("new_name"),
            color=p.get("color"),
            description=p.get("description"),
            priority=p.get("priority"),
            fields=[name for name in EDITS if name in p],
        )
        return label_view(ctx.store, label)

    @api.delete(base + "/:label_id", params=(owner_param, LABEL_ID), auth=REQUIRED, status=204)
    def delete_label(ctx: Context) -> Any:
        """Delete a label (204)."""
        models.delete(ctx.store, _label(ctx, scope, True))


_declare("/projects/:id/labels", PROJECT_ID, _project_scope, project=True)
_declare("/groups/:id/labels", GROUP_ID, _group_scope, project=False)
