"""Control-plane endpoints for the simulated runner, under ``/_fake/ci/`` (no auth).

* ``GET /_fake/ci/runner``: the settings; ``POST /_fake/ci/runner``: set ``mode``
  (``manual``, ``timed``, ``instant``), ``pickup_seconds`` and ``pipelines_on_push`` (at
  least one of them), for the service or one ``project`` (id or full path);
* ``POST /_fake/ci/outcomes``: script a job's outcome by ``job_id`` or by ``job_name``
  (optionally within ``project``); ``outcome`` holds the fields, or a list of them
  (one per attempt), or give ``status``, ``failure_reason``, ``duration``, ``log``,
  ``artifacts``, ``coverage`` directly;
* ``GET /_fake/ci/jobs/:job_id``: the job's state and its ``token`` (``CI_JOB_TOKEN``,
  accepted by the API only while the job runs; null for bridges);
* ``POST /_fake/ci/jobs/:job_id/start``, ``POST /_fake/ci/jobs/:job_id/finish`` (answer
  the same shape);
* ``POST /_fake/ci/pipelines/:pipeline_id/run``: run a pipeline to completion;
* ``POST /_fake/ci/catch_up``: process what is due (useful under a real clock).

Errors answer ``{"error": "<plain message>"}``: 400 for bad values, 404 for an unknown
job, pipeline or project, 409 for a job in the wrong state.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.models import Job
from fakeservice.ci.router import api
from fakeservice.ci.runner.outcomes import MODES, OUTCOME_KEYS
from fakeservice.ci.runner.simulation import FINISH_STATUSES, RunnerError
from fakeservice.core.clock import iso
from fakeservice.web.context import Context
from fakeservice.web.params import ANY, BOOL, FLOAT, INT, STR, Array, AtLeastOne, Param
from fakeservice.web.routing import NO_AUTH

CONTROL: dict[str, Any] = {"prefix": "", "auth": NO_AUTH, "status": 200}
PROJECT = Param("project", STR)


def job_state(job: Job) -> dict[str, Any]:
    return {
        "id": job.id,
        "name": job.name,
        "status": job.status,
        "pipeline_id": job.pipeline_id,
        "started_at": iso(job.started_at),
        "finished_at": iso(job.finished_at),
        "failure_reason": job.failure_reason,
        "token": job.token or None,
    }


@api.get("/_fake/ci/runner", **CONTROL)
def runner_settings(ctx: Context) -> Any:
    """The runner's mode, pickup delay and per-project modes."""
    return ctx.service.runner.settings()


@api.post(
    "/_fake/ci/runner",
    params=(
        Param("mode", STR, values=MODES),
        Param("pickup_seconds", FLOAT),
        Param("pipelines_on_push", BOOL),
        PROJECT,
    ),
    constraints=(AtLeastOne(("mode", "pickup_seconds", "pipelines_on_push")),),
    **CONTROL,
)
def set_runner_mode(ctx: Context) -> Any:
    """Set the runner mode, pickup delay or pipelines on push (service or one project)."""
    ctx.service.runner.set_mode(
        ctx.get("mode"),
        pickup_seconds=ctx.get("pickup_seconds"),
        project=ctx.get("project"),
        pipelines_on_push=ctx.get("pipelines_on_push"),
    )
    return ctx.service.runner.settings()


@api.post(
    "/_fake/ci/outcomes",
    params=(
        Param("job_name", STR),
        Param("job_id", INT),
        PROJECT,
        Param("outcome", ANY),
        *(Param(name, ANY) for name in OUTCOME_KEYS),
    ),
    **CONTROL,
)
def set_outcome(ctx: Context) -> Any:
    """Script the outcome of a job (by id) or of every job of a name."""
    fields = {name: ctx.params[name] for name in OUTCOME_KEYS if name in ctx.params}
    ctx.service.runner.set_outcome(
        ctx.get("job_name"),
        ctx.get("outcome"),
        job_id=ctx.get("job_id"),
        project=ctx.get("project"),
        **fields,
    )
    return {"job_name": ctx.get("job_name"), "job_id": ctx.get("job_id"), "set": True}


@api.get("/_fake/ci/jobs/:job_id", params=(Param("job_id", INT, required=True),), **CONTROL)
def job_info(ctx: Context) -> Any:
    """A job's state and its job token."""
    return job_state(ctx.service.runner.job(ctx.params["job_id"]))


@api.post("/_fake/ci/jobs/:job_id/start", params=(Param("job_id", INT, required=True),), **CONTROL)
def start_job(ctx: Context) -> Any:
    """Pick up a pending job now."""
    return job_state(ctx.service.runner.start(ctx.params["job_id"]))


@api.post(
    "/_fake/ci/jobs/:job_id/finish",
    params=(
        Param("job_id", INT, required=True),
        Param("status", STR, values=FINISH_STATUSES),
        Param("failure_reason", STR),
        Param("log", Array(STR, scalar=True)),
        Param("artifacts", ANY),
        Param("coverage", FLOAT),
    ),
    **CONTROL,
)
def finish_job(ctx: Context) -> Any:
    """Finish a job now (a pending job starts first)."""
    artifacts = ctx.get("artifacts")
    if artifacts is not None and not (
        isinstance(artifacts, dict) and all(isinstance(v, str) for v in artifacts.values())
    ):
        raise RunnerError("artifacts must map paths to text contents", 400)
    job = ctx.service.runner.finish(
        ctx.params["job_id"],
        ctx.get("status"),
        failure_reason=ctx.get("failure_reason"),
        log=ctx.get("log"),
        artifacts=artifacts,
        coverage=ctx.get("coverage"),
    )
    return job_state(job)


@api.post(
    "/_fake/ci/pipelines/:pipeline_id/run",
    params=(Param("pipeline_id", INT, required=True),),
    **CONTROL,
)
def run_pipeline(ctx: Context) -> Any:
    """Run a pipeline and its child pipelines to completion now."""
    pipeline = ctx.service.runner.run_all(ctx.params["pipeline_id"])
    return {"id": pipeline.id, "status": pipeline.status}


@api.post("/_fake/ci/catch_up", **CONTROL)
def catch_up(ctx: Context) -> Any:
    """Process the runner events that are due."""
    ctx.service.runner.catch_up()
    return {"now": iso(ctx.service.clock.now())}
