"""Milestone endpoints of projects (``/projects/:id/milestones``) and groups
(``/groups/:id/milestones``): list (``iids[]``, ``state``, ``title``, ``search``), get,
create, update (with ``state_event``) and delete. Writes need the Reporter role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import or_404
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.members.models import REPORTER
from fakeservice.milestones import models
from fakeservice.milestones.views import milestone_view
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATE, INT, STR, Array, Param
from fakeservice.web.routing import PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("milestones")

PROJECT_ID = Param(
    "id", STR, required=True, description="The ID or URL-encoded path of the project"
)
GROUP_ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the group")
MILESTONE_ID = Param("milestone_id", INT, required=True, description="The milestone's id")
FIELDS = ("title", "description", "due_date", "start_date", "state_event")


def _project_scope(ctx: Context, write: bool) -> tuple[models.Owner, list[models.Owner]]:
    project = find_project_or_404(ctx, ctx.params["id"])
    if write:
        require_access(ctx, project, REPORTER)
    owners = models.owners_of_project(ctx.store, project)
    return owners[0], owners if ctx.params.get("include_ancestors") else owners[:1]


def _group_scope(ctx: Context, write: bool) -> tuple[models.Owner, list[models.Owner]]:
    group = find_group_or_404(ctx, ctx.params["id"])
    if write:
        require_group_access(ctx, group, REPORTER)
    owners = models.owners_of_group(ctx.store, group.id)
    return owners[0], owners if ctx.params.get("include_ancestors") else owners[:1]


Scope = Callable[[Context, bool], tuple[models.Owner, list[models.Owner]]]


def _render(ctx: Context) -> Callable[[models.Milestone], dict[str, Any]]:
    return lambda record: milestone_view(ctx.store, record, ctx.base_url, ctx.now)


def _declare(base: str, owner_param: Param, scope: Scope) -> None:
    one = base + "/:milestone_id"

    @api.get(
        base,
        params=(
            owner_param,
            Param("iids", Array(INT, scalar=True)),
            Param("state", STR, values=("active", "closed")),
            Param("title", STR),
            Param("search", STR),
            Param("include_ancestors", BOOL, default=False),
            Param("include_parent_milestones", BOOL),
        ),
        auth=PUBLIC,
        paginated=True,
    )
    def list_milestones(ctx: Context) -> Any:
        """List milestones, newest first."""
        p = ctx.params
        if p.get("include_parent_milestones"):
            p["include_ancestors"] = True
        _, owners = scope(ctx, False)
        iids = set(p.get("iids") or [])
        state, title = p.get("state"), p.get("title")
        search = (p.get("search") or "").lower()

        def keep(record: models.Milestone) -> bool:
            return (
                (not iids or record.iid in iids)
                and (state is None or record.state == state)
                and (title is None or record.title == title)
                and (
                    not search
                    or search in record.title.lower()
                    or search in (record.description or "").lower()
                )
            )

        selection = models.of_owners(ctx.store, owners)
        if iids or state or title or search:
            selection = selection.filter(keep)
        return ctx.paginate(selection, _render(ctx))

    @api.get(one, params=(owner_param, MILESTONE_ID), auth=PUBLIC)
    def get_milestone(ctx: Context) -> Any:
        """Get one milestone."""
        own, _ = scope(ctx, False)
        return _render(ctx)(or_404(models.find(ctx.store, own, ctx.params["milestone_id"])))

    @api.post(
        base,
        params=(
            owner_param,
            Param("title", STR, required=True),
            Param("description", STR),
            Param("due_date", DATE),
            Param("start_date", DATE),
        ),
        auth=REQUIRED,
    )
    def create_milestone(ctx: Context) -> Any:
        """Create a milestone (400 when the title is taken)."""
        own, _ = scope(ctx, True)
        p = ctx.params
        record = models.create(
            ctx.store,
            own,
            ctx.now,
            title=p["title"] or "",
            description=p.get("description"),
            due_date=p.get("due_date"),
            start_date=p.get("start_date"),
        )
        return _render(ctx)(record)

    @api.put(
        one,
        params=(
            owner_param,
            MILESTONE_ID,
            Param("title", STR),
            Param("description", STR),
            Param("due_date", DATE),
            Param("start_date", DATE),
            Param("state_event", STR, values=("close", "activate")),
        ),
        auth=REQUIRED,
    )
    def update_milestone(ctx: Context) -> Any:
        """Update a milestone; ``state_event`` closes or activates it."""
        own, _ = scope(ctx, True)
        record = or_404(models.find(ctx.store, own, ctx.params["milestone_id"]))
        fields = {name: ctx.params[name] for name in FIELDS if name in ctx.params}
        return _render(ctx)(models.update(ctx.store, record, ctx.now, fields))

    @api.delete(one, params=(owner_param, MILESTONE_ID), auth=REQUIRED)
    def delete_milestone(ctx: Context) -> Any:
        """Delete a milestone (204)."""
        own, _ = scope(ctx, True)
        models.delete(ctx.store, or_404(models.find(ctx.store, own, ctx.params["milestone_id"])))


_declare("/projects/:id/milestones", PROJECT_ID, _project_scope)
_declare("/groups/:id/milestones", GROUP_ID, _group_scope)
