"""Triggering pipelines with a token (not in the spec; the real service has it):
``POST /projects/:id/trigger/pipeline`` and ``POST /projects/:id/ref/:ref/trigger/pipeline``
(``token``, ``ref``, ``variables`` as a hash of strings, ``inputs``), no other
authentication needed. The answer is the new pipeline (201).

* a trigger token of the project makes a pipeline with ``source: trigger`` by the token's
  owner, the variables as its pipeline variables, and sets the token's ``last_used``;
* a running job's ``CI_JOB_TOKEN`` (of a project the target's job token scope lets in)
  makes a downstream pipeline (``source: pipeline``) by the job's user;
* any other token, an expired one, or a token of another project answers
  ``404 Not Found``; a stopped job's token ``400 Job has to be running``; an unknown ref
  and the other creation errors answer as ``POST /projects/:id/pipeline`` does.

Pipelines are made by :func:`fakeservice.ci.pipelines.creation.create_for_ref`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fakeservice.ci.job_token_scope import allows
from fakeservice.ci.models import Job, Pipeline, jobs
from fakeservice.ci.pipelines.creation import create_for_ref
from fakeservice.ci.route_common import renderer
from fakeservice.ci.router import api
from fakeservice.ci.runner.simulation import settle
from fakeservice.ci.triggers import models as model
from fakeservice.core.errors import BadRequest, NotFound, ValidationFailed
from fakeservice.members.access import project_access
from fakeservice.members.models import DEVELOPER
from fakeservice.projects.models import Project, find_project
from fakeservice.users.models import users
from fakeservice.web.context import Context
from fakeservice.web.params import HASH, STR, Param

NO_PERMISSION = "Insufficient permissions to create a new pipeline"
BAD_VARIABLES = "variables needs to be a map of key-valued strings"
NO_INPUTS = "Given inputs not defined in the `spec` section of the included configuration file"
PARAMS = (
    Param("id", STR, required=True),
    Param("ref", STR, required=True, allow_blank=False),
    Param("token", STR, required=True),
    Param("variables", HASH),
    Param("inputs", HASH),
)


def _variables(given: Mapping[str, Any] | None) -> list[dict[str, str]]:
    """The pipeline variables of a ``variables`` hash (400 unless keys and values are strings)."""
    items = dict(given or {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in items.items()):
        raise BadRequest(BAD_VARIABLES, raw=True)
    return [{"key": k, "value": v, "variable_type": "env_var"} for k, v in items.items()]


def _project(ctx: Context) -> Project:
    project = find_project(ctx.store, ctx.params["id"])
    if project is None or project.marked_for_deletion_on is not None:
        raise NotFound(message="404 Not Found")
    return project


def _may_create(ctx: Context, user_id: int | None, project: Project) -> bool:
    user = users(ctx.store).get(user_id)
    if user is None or user.state != "active":
        return False
    return bool(user.admin) or project_access(ctx.store, user, project, ctx.now) >= DEVELOPER


def _from_job(
    ctx: Context, project: Project, job: Job, variables: list[dict[str, str]]
) -> Pipeline:
    if not allows(ctx.store, project, job.project_id) or not _may_create(ctx, job.user_id, project):
        raise NotFound(message="404 Not Found")
    if job.status != "running":
        raise BadRequest("400 Job has to be running", raw=True)
    return _create(ctx, project, "pipeline", job.user_id, variables, job)


def _create(
    ctx: Context,
    project: Project,
    source: str,
    user_id: int | None,
    variables: list[dict[str, str]],
    job: Job | None = None,
) -> Pipeline:
    return create_for_ref(
        ctx.store,
        project,
        ctx.params["ref"],
        source=source,
        user_id=user_id,
        variables=variables,
        now=ctx.now,
        trigger_job=job,
    )


def _trigger(ctx: Context) -> Pipeline:
    variables = _variables(ctx.params.get("variables"))
    if ctx.params.get("inputs"):  # the fake's CI files have no ``spec: inputs`` header
        raise ValidationFailed({"base": [NO_INPUTS]})
    project = _project(ctx)
    secret = ctx.params["token"]
    trigger = model.by_token(ctx.store, secret)
    if trigger is None:
        job = jobs(ctx.store).by("token", secret) if secret else None
        if job is None or job.user_id is None:
            raise NotFound(message="404 Not Found")
        return _from_job(ctx, project, job, variables)
    if trigger.project_id != project.id or model.expired(trigger, ctx.now):
        raise NotFound(message="404 Not Found")
    if not _may_create(ctx, trigger.owner_id, project):
        raise ValidationFailed({"base": [NO_PERMISSION]})
    pipeline = _create(ctx, project, "trigger", trigger.owner_id, variables)
    model.triggers(ctx.store).update(trigger, last_used=ctx.now)
    return pipeline


def _answer(ctx: Context) -> Any:
    pipeline = _trigger(ctx)
    settle(ctx.store, ctx.now)
    return renderer(ctx).pipeline(pipeline)


@api.post("/projects/:id/trigger/pipeline", params=PARAMS)
def trigger_pipeline(ctx: Context) -> Any:
    """Create a pipeline with a trigger token or a running job's token (201)."""
    return _answer(ctx)


@api.post("/projects/:id/ref/*ref/trigger/pipeline", params=PARAMS)
def trigger_pipeline_at_ref(ctx: Context) -> Any:
    """The same with the ref in the path (``?token=``)."""
    return _answer(ctx)
