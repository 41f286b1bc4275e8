"""Job endpoints (seed 000 §4.1): list project jobs, pipeline jobs and bridges, get one job,
its log, cancel, retry, play, and the job-token endpoints ``GET /job`` and
``GET /job/allowed_agents``.

``scope`` is a string or an array of job statuses; lists are newest first (id
descending) and come straight from the job indexes.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.access import (
    build_of,
    pipeline_of,
    readable_project,
)
from fakeservice.ci.artifacts.job_artifacts import trace_bytes
from fakeservice.ci.jobs import operations as job_ops
from fakeservice.ci.models import JOB_SCOPES, jobs
from fakeservice.ci.route_common import ID, JOB_ID, PIPELINE_ID, act, renderer
from fakeservice.ci.router import api
from fakeservice.core.errors import NotFound, or_404
from fakeservice.core.store import Selection
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL, STR, Array, Param
from fakeservice.web.routing import REQUIRED

SCOPE = Param("scope", Array(STR, scalar=True), values=JOB_SCOPES)


def _scoped(ctx: Context, index: str, scoped_index: str, key: tuple[Any, ...]) -> Selection[Any]:
    table = jobs(ctx.store)
    scope = ctx.get("scope")
    if scope:
        keys = [(*key, status) for status in dict.fromkeys(scope)]
        return table.select(scoped_index, keys, reverse=True)
    return table.select(index, [key[0] if len(key) == 1 else key], reverse=True)


@api.get("/projects/:id/jobs", params=(ID, SCOPE), paginated=True)
def list_project_jobs(ctx: Context) -> Response:
    """List project jobs, newest first."""
    project = readable_project(ctx)
    selection = _scoped(ctx, "builds_by_project", "builds_by_project_status", (project.id,))
    return ctx.paginate(selection, renderer(ctx).job)


@api.get(
    "/projects/:id/pipelines/:pipeline_id/jobs",
    params=(ID, PIPELINE_ID, SCOPE, Param("include_retried", BOOL, default=False)),
    paginated=True,
)
def list_pipeline_jobs(ctx: Context) -> Response:
    """List the jobs of a pipeline, newest first; retried jobs only with include_retried."""
    project = readable_project(ctx)
    pipeline = pipeline_of(ctx, project)
    selection = _scoped(ctx, "by_pipeline_kind", "by_pipeline_kind_status", (pipeline.id, "build"))
    if not ctx.get("include_retried"):
        selection = selection.filter(lambda job: not job.retried)
    return ctx.paginate(selection, renderer(ctx).job)


@api.get(
    "/projects/:id/pipelines/:pipeline_id/bridges",
    params=(ID, PIPELINE_ID, SCOPE),
    paginated=True,
)
def list_pipeline_bridges(ctx: Context) -> Response:
    """List the bridge jobs of a pipeline, newest first."""
    project = readable_project(ctx)
    pipeline = pipeline_of(ctx, project)
    selection = _scoped(ctx, "by_pipeline_kind", "by_pipeline_kind_status", (pipeline.id, "bridge"))
    return ctx.paginate(selection, renderer(ctx).bridge)


@api.get("/projects/:id/jobs/:job_id", params=(ID, JOB_ID))
def get_job(ctx: Context) -> Any:
    """Get a single job."""
    project = readable_project(ctx)
    return renderer(ctx).job(build_of(ctx, project))


@api.get("/projects/:id/jobs/:job_id/trace", params=(ID, JOB_ID), produces=("text/plain",))
def get_trace(ctx: Context) -> Response:
    """The job's log as plain text; 404 when the job has no log."""
    project = readable_project(ctx)
    job = build_of(ctx, project)
    log = trace_bytes(job)
    if log is None:
        raise NotFound()
    return Response(200, [("Content-Type", "text/plain; charset=utf-8")], log)


@api.post("/projects/:id/jobs/:job_id/cancel", params=(ID, JOB_ID), auth=REQUIRED)
def cancel_job(ctx: Context) -> Any:
    """Cancel a job; a finished job is returned unchanged."""
    job = act(ctx, build_of, lambda job: job_ops.cancel(ctx.store, job, ctx.now))
    return renderer(ctx).job(job)


@api.post("/projects/:id/jobs/:job_id/retry", params=(ID, JOB_ID), auth=REQUIRED)
def retry_job(ctx: Context) -> Any:
    """Retry a job: a new job (new id) is created; 403 when the job is not retryable."""
    job = act(ctx, build_of, lambda job: job_ops.retry(ctx.store, job, ctx.user.id, ctx.now))
    return renderer(ctx).job(job)


@api.post("/projects/:id/jobs/:job_id/play", params=(ID, JOB_ID), auth=REQUIRED)
def play_job(ctx: Context) -> Any:
    """Run a manual job; 400 Unplayable Job otherwise."""
    job = act(ctx, build_of, lambda job: job_ops.play(ctx.store, job, ctx.user.id, ctx.now))
    return renderer(ctx).job(job)


def _token_job(ctx: Context) -> Any:
    return or_404(ctx.caller.job, "Job")


@api.get("/job", auth=REQUIRED, job_token=True)
def current_job(ctx: Context) -> Any:
    """The job of the job token used."""
    return renderer(ctx).job(_token_job(ctx))


@api.get("/job/allowed_agents", auth=REQUIRED, job_token=True)
def allowed_agents(ctx: Context) -> Any:
    """The agents a job token may use (none in this fake), with the job's context."""
    return renderer(ctx).allowed_agents(_token_job(ctx))
