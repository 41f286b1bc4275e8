"""Environments endpoints (not in the spec; as the real service): list (``name``,
``search``, ``states``), get (with ``last_deployment``), create, edit, delete (stopped
environments only) and stop. Reading needs the Reporter role, changing the Developer role.

Stopping an environment whose last deployment names an ``on_stop`` job that can be played
plays it and leaves the environment ``stopping`` until that job succeeds; otherwise (or
with ``force``) the environment is ``stopped`` at once.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.jobs.operations import play
from fakeservice.core.errors import Forbidden, ValidationFailed, or_404
from fakeservice.environments import deployments as models
from fakeservice.environments.deployment_views import deployment_view, environment_view
from fakeservice.environments.router import api
from fakeservice.members.models import DEVELOPER, REPORTER
from fakeservice.projects.lookup import project_with_role
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, MutuallyExclusive, Param
from fakeservice.web.routing import REQUIRED

PATH = "/projects/:id/environments"
ONE = PATH + "/:environment_id"
ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the project")
ENV_ID = Param("environment_id", INT, required=True, description="The ID of the environment")
URL = Param("external_url", STR, description="Where the environment is reachable (http/https)")
TIER = Param("tier", STR, values=models.TIERS, description="The deployment tier")
STATES = ("available", "stopping", "stopped")


def _environment(ctx: Context, role: int) -> models.Environment:
    project = project_with_role(ctx, role)
    env = models.environments(ctx.store).get(ctx.params["environment_id"])
    return or_404(env if env is not None and env.project_id == project.id else None)


def _check(errors: dict[str, list[str]]) -> None:
    if errors:
        raise ValidationFailed(errors)


@api.get(
    PATH,
    params=(
        ID,
        Param("name", STR, description="Exactly this name"),
        Param("search", STR, description="Names containing this"),
        Param("states", STR, values=STATES, description="Only this state"),
    ),
    constraints=(MutuallyExclusive(("name", "search")),),
    auth=REQUIRED,
    paginated=True,
)
def list_environments(ctx: Context) -> Any:
    """List a project's environments (by id)."""
    project = project_with_role(ctx, REPORTER)
    p = ctx.params
    name, search, states = p.get("name"), p.get("search"), p.get("states")

    def keep(env: models.Environment) -> bool:
        return (
            (search is None or search in env.name)
            and (states is None or env.state == states)
            and (name is None or env.name == name)
        )

    return ctx.paginate(
        models.of_project(ctx.store, project.id).filter(keep),
        lambda env: environment_view(ctx, env),
    )


@api.get(ONE, params=(ID, ENV_ID), auth=REQUIRED)
def get_environment(ctx: Context) -> Any:
    """One environment with its ``last_deployment``."""
    env = _environment(ctx, REPORTER)
    last = models.last_deployment(ctx.store, env.id)
    return {
        **environment_view(ctx, env),
        "last_deployment": None if last is None else deployment_view(ctx, last),
    }


@api.post(
    PATH,
    params=(ID, Param("name", STR, required=True, description="The environment's name"), URL, TIER),
    auth=REQUIRED,
)
def create_environment(ctx: Context) -> Any:
    """Create an environment (400 with the model's messages when the name is taken or
    malformed)."""
    project = project_with_role(ctx, DEVELOPER)
    p, store = ctx.params, ctx.store
    name, url = p["name"], p.get("external_url") or None
    if name is None:  # a JSON null: the model's presence and format checks
        _check({"name": ["can't be blank", models.NAME_MESSAGE]})
    _check(models.environment_errors(store, project.id, name, url))
    env = models.ensure_environment(store, project.id, name, ctx.now, url)
    if p.get("tier") is not None:
        models.environments(store).update(env, tier=p["tier"])
    return environment_view(ctx, env)


@api.put(ONE, params=(ID, ENV_ID, URL, TIER), auth=REQUIRED)
def edit_environment(ctx: Context) -> Any:
    """Change an environment's external URL and tier."""
    env = _environment(ctx, DEVELOPER)
    p = ctx.params
    changes: dict[str, Any] = {}
    if "external_url" in p:
        url = p["external_url"] or None
        _check(models.environment_errors(ctx.store, env.project_id, None, url))
        changes["external_url"] = url
    if p.get("tier") is not None:
        changes["tier"] = p["tier"]
    if changes:
        models.environments(ctx.store).update(env, updated_at=ctx.now, **changes)
    return environment_view(ctx, env)


@api.delete(ONE, params=(ID, ENV_ID), auth=REQUIRED)
def delete_environment(ctx: Context) -> Any:
    """Delete a stopped environment and its deployments (403 while it is not stopped)."""
    env = _environment(ctx, DEVELOPER)
    if env.state != "stopped":
        raise Forbidden()
    models.forget_environment(ctx.store, env)


@api.post(
    ONE + "/stop",
    params=(ID, ENV_ID, Param("force", BOOL, default=False, description="Skip the on_stop job")),
    auth=REQUIRED,
    status=200,
)
def stop_environment(ctx: Context) -> Any:
    """Stop an environment, through its ``on_stop`` job unless ``force``."""
    env = _environment(ctx, DEVELOPER)
    store, now = ctx.store, ctx.now
    job = None if ctx.params.get("force") else models.stop_job(store, env)
    if env.state == "available" and job is not None:
        models.environments(store).update(env, state="stopping", updated_at=now)
        play(store, job, ctx.user.id, now)
    elif env.state != "stopped":
        models.environments(store).update(env, state="stopped", updated_at=now)
    return environment_view(ctx, env)
