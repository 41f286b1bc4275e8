"""Pipeline schedule endpoints (not in the spec; the real service has them):
``/projects/:id/pipeline_schedules`` list (``scope`` active/inactive), get (with its
variables and ``last_pipeline``), create (Maintainer), edit (its owner), take_ownership
(Maintainer), delete (Maintainer or its owner), ``play`` (Developer: a ``schedule``
pipeline now, ``201 Created``), its pipelines, and its variables (its owner).
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.access import writable_project
from fakeservice.ci.models import pipelines
from fakeservice.ci.route_common import ID, renderer
from fakeservice.ci.router import api
from fakeservice.ci.runner.simulation import settle
from fakeservice.ci.schedules import models as model
from fakeservice.ci.schedules.models import Schedule, ScheduleVariable
from fakeservice.ci.schedules.runs import run
from fakeservice.core.clock import iso
from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.members.models import DEVELOPER, MAINTAINER, REPORTER
from fakeservice.projects.models import Project
from fakeservice.users.models import users
from fakeservice.users.views import user_basic
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL, INT, STR, Param
from fakeservice.web.routing import REQUIRED

BASE = "/projects/:id/pipeline_schedules"
ONE = f"{BASE}/:pipeline_schedule_id"
SCHEDULE_ID = Param("pipeline_schedule_id", INT, required=True)
VARIABLE_TYPES = ("env_var", "file")
FIELDS = ("description", "ref", "cron", "cron_timezone", "active")
VARIABLE_KEY = Param("key", STR, required=True)


def _schedule_params(required: bool) -> tuple[Param, ...]:
    return (
        Param("description", STR, required=required),
        Param("ref", STR, required=required),
        Param("cron", STR, required=required),
        Param("cron_timezone", STR),
        Param("active", BOOL),
    )


def view(ctx: Context, schedule: Schedule) -> dict[str, Any]:
    owner = users(ctx.store).get(schedule.owner_id)
    return {
        "id": schedule.id,
        "description": schedule.description,
        "ref": schedule.ref,
        "cron": schedule.cron,
        "cron_timezone": schedule.cron_timezone,
        "next_run_at": iso(schedule.next_run_at),
        "active": schedule.active,
        "created_at": iso(schedule.created_at),
        "updated_at": iso(schedule.updated_at),
        "owner": user_basic(owner, ctx.base_url) if owner else None,
    }


def variable_view(variable: ScheduleVariable) -> dict[str, Any]:
    return {"key": variable.key, "value": variable.value, "variable_type": variable.variable_type}


def detail(ctx: Context, schedule: Schedule) -> dict[str, Any]:
    last = next((p for p in map(pipelines(ctx.store).get, schedule.pipeline_ids[::-1]) if p), None)
    out = view(ctx, schedule)
    out["last_pipeline"] = (
        None
        if last is None
        else {"id": last.id, "sha": last.sha, "ref": last.ref, "status": last.status}
    )
    out["variables"] = [variable_view(v) for v in model.variables_of(ctx.store, schedule)]
    return out


def _found(ctx: Context, project: Project) -> Schedule:
    schedule = model.schedules(ctx.store).get(ctx.params["pipeline_schedule_id"])
    if schedule is None or schedule.project_id != project.id:
        raise NotFound("Pipeline Schedule")
    return schedule


def _owned(ctx: Context) -> Schedule:
    """The schedule of the path when the caller (Developer and up) owns it, else 403."""
    schedule = _found(ctx, writable_project(ctx, DEVELOPER))
    if schedule.owner_id != ctx.user.id:
        raise Forbidden()
    return schedule


def _given(ctx: Context, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: ctx.params[n] for n in names if ctx.params.get(n) is not None}


@api.get(
    BASE,
    params=(ID, Param("scope", STR, values=("active", "inactive"))),
    auth=REQUIRED,
    paginated=True,
)
def list_schedules(ctx: Context) -> Response:
    """List a project's pipeline schedules (Reporter)."""
    project = writable_project(ctx, REPORTER)
    scope = ctx.params.get("scope")
    active = None if scope is None else scope == "active"
    return ctx.paginate(model.of_project(ctx.store, project.id, active), lambda s: view(ctx, s))


@api.get(ONE, params=(ID, SCHEDULE_ID), auth=REQUIRED)
def get_schedule(ctx: Context) -> Any:
    """Get a pipeline schedule with its variables and last pipeline (Reporter)."""
    return detail(ctx, _found(ctx, writable_project(ctx, REPORTER)))


@api.post(BASE, params=(ID, *_schedule_params(True)), auth=REQUIRED)
def create_schedule(ctx: Context) -> Any:
    """Create a pipeline schedule owned by the caller (Maintainer)."""
    project = writable_project(ctx, MAINTAINER)
    fields = _given(ctx, FIELDS)
    return detail(ctx, model.create(ctx.store, project.id, ctx.user.id, ctx.now, **fields))


@api.put(ONE, params=(ID, SCHEDULE_ID, *_schedule_params(False)), auth=REQUIRED)
def edit_schedule(ctx: Context) -> Any:
    """Edit a pipeline schedule (its owner)."""
    schedule = _owned(ctx)
    return detail(ctx, model.change(ctx.store, schedule, ctx.now, **_given(ctx, FIELDS)))


@api.post(f"{ONE}/take_ownership", params=(ID, SCHEDULE_ID), auth=REQUIRED)
def take_ownership(ctx: Context) -> Any:
    """Make the caller the schedule's owner (Maintainer)."""
    schedule = _found(ctx, writable_project(ctx, MAINTAINER))
    return detail(ctx, model.change(ctx.store, schedule, ctx.now, owner_id=ctx.user.id))


@api.delete(ONE, params=(ID, SCHEDULE_ID), auth=REQUIRED, status=200)
def delete_schedule(ctx: Context) -> Any:
    """Delete a pipeline schedule (Maintainer, or its owner) and answer it."""
    project = writable_project(ctx, DEVELOPER)
    schedule = _found(ctx, project)
    if schedule.owner_id != ctx.user.id:
        writable_project(ctx, MAINTAINER)
    out = detail(ctx, schedule)
    model.delete(ctx.store, schedule)
    return out


@api.post(f"{ONE}/play", params=(ID, SCHEDULE_ID), auth=REQUIRED)
def play_schedule(ctx: Context) -> Any:
    """Run the schedule now (Developer): ``201 Created``."""
    project = writable_project(ctx, DEVELOPER)
    schedule = _found(ctx, project)
    model.schedules(ctx.store).update(schedule, updated_at=ctx.now)
    run(ctx.store, project, schedule, ctx.now)
    settle(ctx.store, ctx.now)
    return {"message": "201 Created"}


@api.get(f"{ONE}/pipelines", params=(ID, SCHEDULE_ID), auth=REQUIRED, paginated=True)
def schedule_pipelines(ctx: Context) -> Response:
    """The pipelines the schedule created, oldest first (Reporter)."""
    schedule = _found(ctx, writable_project(ctx, REPORTER))
    table = pipelines(ctx.store)
    made = [p for p in map(table.get, schedule.pipeline_ids) if p is not None]
    selection = table.ordered(made, lambda p: (p.id,))
    return ctx.paginate(selection, renderer(ctx).pipeline_item)


def _variable(ctx: Context, schedule: Schedule) -> ScheduleVariable:
    key = (schedule.id, ctx.params["key"])
    variable = model.schedule_variables(ctx.store).by("schedule_key", key)
    if variable is None:
        raise NotFound("Variable")
    return variable


@api.post(
    f"{ONE}/variables",
    params=(
        ID,
        SCHEDULE_ID,
        VARIABLE_KEY,
        Param("value", STR, required=True),
        Param("variable_type", STR, values=VARIABLE_TYPES, default="env_var"),
    ),
    auth=REQUIRED,
)
def create_variable(ctx: Context) -> Any:
    """Add a variable to the schedule's pipelines (its owner)."""
    schedule = _owned(ctx)
    fields = _given(ctx, ("key", "value", "variable_type"))
    return variable_view(model.add_variable(ctx.store, schedule, **fields))


@api.put(
    f"{ONE}/variables/:key",
    params=(
        ID,
        SCHEDULE_ID,
        VARIABLE_KEY,
        Param("value", STR),
        Param("variable_type", STR, values=VARIABLE_TYPES),
    ),
    auth=REQUIRED,
)
def edit_variable(ctx: Context) -> Any:
    """Change a schedule variable's value or type (its owner)."""
    variable = _variable(ctx, _owned(ctx))
    fields = _given(ctx, ("value", "variable_type"))
    return variable_view(model.schedule_variables(ctx.store).update(variable, **fields))


@api.delete(
    f"{ONE}/variables/:key", params=(ID, SCHEDULE_ID, VARIABLE_KEY), auth=REQUIRED, status=200
)
def delete_variable(ctx: Context) -> Any:
    """Remove a schedule variable and answer it (its owner)."""
    variable = _variable(ctx, _owned(ctx))
    model.schedule_variables(ctx.store).delete(variable)
    return variable_view(variable)
