"""Runner endpoints by id: the caller's runners (``GET /runners``), every runner
(``GET /runners/all``, administrators), get, update, delete, the jobs a runner ran, its
managers (the simulated runner process once it made contact), and a new authentication
token."""

from __future__ import annotations

from typing import Any

from fakeservice.ci.models import jobs
from fakeservice.ci.views import Renderer
from fakeservice.core.errors import Forbidden
from fakeservice.projects.models import projects
from fakeservice.projects.views import project_identity
from fakeservice.runners import access, filters
from fakeservice.runners.fields import ACTIVE_OR_PAUSED, EDIT_NAMES, EDIT_PARAMS, changes
from fakeservice.runners.models import PROJECT, rotate_token, runners, update_runner
from fakeservice.runners.notify import runners_changed
from fakeservice.runners.router import api
from fakeservice.runners.views import managers_view, runner_details, runner_view
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, AtLeastOne, Param
from fakeservice.web.routing import ADMIN, REQUIRED

RUNNER_ID = Param("id", INT, required=True)
JOB_STATUSES = ("running", "success", "failed", "canceled")


def _render(ctx: Context) -> Any:
    return lambda runner: runner_view(runner, ctx.now)


@api.get("/runners", params=filters.OWNED_PARAMS, auth=REQUIRED, paginated=True)
def list_owned(ctx: Context) -> Any:
    """The caller's runners (of the groups they own and the projects they maintain)."""
    selection = access.owned(ctx).filter(filters.predicate(ctx.params, ctx.now))
    return ctx.paginate(selection, _render(ctx))


@api.get("/runners/all", params=filters.ALL_PARAMS, auth=ADMIN, paginated=True)
def list_all(ctx: Context) -> Any:
    """Every runner of the instance (administrators)."""
    table = runners(ctx.store)
    kind = ctx.params.get("type")
    selection = table.select("by_type", [kind]) if kind else table.select()
    rest = {k: v for k, v in ctx.params.items() if k != "type"}
    return ctx.paginate(selection.filter(filters.predicate(rest, ctx.now)), _render(ctx))


@api.get("/runners/:id", params=(RUNNER_ID,), auth=REQUIRED)
def get_runner(ctx: Context) -> Any:
    """A runner's details."""
    runner = access.readable_runner(ctx, ctx.params["id"])
    return runner_details(ctx.store, runner, ctx.now, ctx.base_url)


@api.put(
    "/runners/:id",
    params=(RUNNER_ID, *EDIT_PARAMS),
    constraints=(ACTIVE_OR_PAUSED, AtLeastOne(EDIT_NAMES)),
    auth=REQUIRED,
)
def update(ctx: Context) -> Any:
    """Update a runner (every editable field; ``paused`` and ``active`` agree)."""
    runner = access.managed_runner(ctx, ctx.params["id"])
    update_runner(ctx.store, runner, changes(ctx.params))
    runners_changed(ctx)
    return runner_details(ctx.store, runner, ctx.now, ctx.base_url)


@api.delete("/runners/:id", params=(RUNNER_ID,), auth=REQUIRED)
def delete(ctx: Context) -> Any:
    """Delete a runner (a project runner of several projects: administrators only)."""
    runner = access.managed_runner(ctx, ctx.params["id"])
    if runner.runner_type == PROJECT and len(runner.project_ids) > 1 and not ctx.is_admin:
        raise Forbidden("Runner associated with more than one project")
    runners(ctx.store).delete(runner)
    return None


@api.get(
    "/runners/:id/jobs",
    params=(
        RUNNER_ID,
        Param("status", STR, values=JOB_STATUSES),
        Param("order_by", STR, default="id", values=("id",)),
        Param("sort", STR, default="desc", values=("asc", "desc")),
        Param("system_id", STR),
    ),
    auth=REQUIRED,
    paginated=True,
)
def runner_jobs(ctx: Context) -> Any:
    """The jobs a runner ran or runs (non-administrators: of the projects they maintain)."""
    runner = access.readable_runner(ctx, ctx.params["id"])
    if "ci_jobs" not in ctx.store.tables:  # a service made without the CI area
        return ctx.paginate_list([], lambda job: job)
    table = jobs(ctx.store)
    status = ctx.params.get("status")
    reverse = ctx.params["sort"] == "desc"
    selection = table.select("by_runner", [runner.id], reverse=reverse)
    if status:
        selection = selection.filter(lambda job: job.status == status)
    allowed = access.visible_project_ids(ctx)
    if allowed is not None:
        selection = selection.filter(lambda job: job.project_id in allowed)
    renderer = Renderer(ctx.store, ctx.base_url, ctx.now)

    def render(job: Any) -> Any:
        out = renderer.job(job)
        out["project"] = project_identity(projects(ctx.store).rows[job.project_id])
        return out

    return ctx.paginate(selection, render)


@api.get("/runners/:id/managers", params=(RUNNER_ID,), auth=REQUIRED)
def runner_managers(ctx: Context) -> Any:
    """The runner's managers (one per runner process that contacted the service)."""
    return managers_view(access.readable_runner(ctx, ctx.params["id"]), ctx.now)


@api.post("/runners/:id/reset_authentication_token", params=(RUNNER_ID,), auth=REQUIRED)
def reset_authentication_token(ctx: Context) -> Any:
    """A new authentication token for a runner (the old one stops working)."""
    runner = access.managed_runner(ctx, ctx.params["id"])
    rotate_token(ctx.store, runner)
    return {"token": runner.token, "token_expires_at": None}
