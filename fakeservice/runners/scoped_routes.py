"""A project's and a group's runners: the runners a project may use (its own, its groups'
and the instance's), enabling a runner on a project and disabling it again, and the
runners of a group (its own, its ancestors' and the instance's)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ApiError, BadRequest, Forbidden, NotFound
from fakeservice.core.store import Selection
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.groups.models import self_and_ancestor_ids
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.runners import access, filters
from fakeservice.runners.availability import available
from fakeservice.runners.models import GROUP, INSTANCE, Runner, assign, runners, unassign
from fakeservice.runners.notify import runners_changed
from fakeservice.runners.router import api
from fakeservice.runners.views import runner_view
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

SCOPED_PARAMS = (Param("scope", STR, values=filters.LIST_STATUSES), filters.TYPE, *filters.FILTERS)
RUNNER_ID = Param("runner_id", INT, required=True)


def _project(ctx: Context) -> Any:
    project = find_project_or_404(ctx, ctx.path_params["id"])
    require_access(ctx, project, MAINTAINER)
    return project


def _page(ctx: Context, selection: Selection[Runner]) -> Any:
    chosen = selection.filter(filters.predicate(ctx.params, ctx.now))
    return ctx.paginate(chosen, lambda runner: runner_view(runner, ctx.now))


@api.get("/projects/:id/runners", params=SCOPED_PARAMS, auth=REQUIRED, paginated=True)
def list_project_runners(ctx: Context) -> Any:
    """The runners a project may use (Maintainer and above)."""
    return _page(ctx, available(ctx.store, _project(ctx)))


@api.post("/projects/:id/runners", params=(RUNNER_ID,), auth=REQUIRED)
def enable_runner(ctx: Context) -> Any:
    """Assign a project runner to one more project."""
    project = _project(ctx)
    runner = access.find_runner_or_404(ctx, ctx.params["runner_id"])
    if runner.runner_type == GROUP:
        raise Forbidden("Runner is a group runner")
    if not ctx.is_admin:
        if runner.locked:
            raise Forbidden("Runner is locked")
        if not access.can_manage(ctx, runner):
            raise Forbidden(access.NO_ACCESS)
    if runner.runner_type == INSTANCE:
        raise BadRequest("Runner is an instance runner")
    if project.id in runner.project_ids:
        raise ApiError({"message": "Runner was already enabled for this project"}, status=409)
    assign(ctx.store, runner, project.id)
    runners_changed(ctx)
    return runner_view(runner, ctx.now)


@api.delete("/projects/:id/runners/:runner_id", params=(RUNNER_ID,), auth=REQUIRED)
def disable_runner(ctx: Context) -> Any:
    """Unassign a project runner from a project other than its owner project."""
    project = _project(ctx)
    runner = runners(ctx.store).get(ctx.params["runner_id"])
    if runner is None or project.id not in runner.project_ids:
        raise NotFound("Runner")
    if runner.project_ids[0] == project.id:
        raise Forbidden(
            "You cannot unassign a runner from the owner project. Delete the runner instead"
        )
    unassign(ctx.store, runner, project.id)
    return None


@api.get("/groups/:id/runners", params=SCOPED_PARAMS, auth=REQUIRED, paginated=True)
def list_group_runners(ctx: Context) -> Any:
    """A group's runners, its ancestors' and the instance's (Maintainer and above)."""
    group = find_group_or_404(ctx, ctx.path_params["id"])
    require_group_access(ctx, group, MAINTAINER)
    table = runners(ctx.store)
    index = table.sorted["by_group"]
    sources = [index.part(gid) for gid in self_and_ancestor_ids(ctx.store, group)]
    sources.append(table.sorted["by_type"].part(INSTANCE))
    return _page(ctx, Selection(table, sources))
