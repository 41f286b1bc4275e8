"""Pipeline endpoints (seed 000 §4.2): list with every filter and ordering, get, create from
the CI file, retry, cancel, delete, variables, test report and its summary."""

from __future__ import annotations

from typing import Any

from fakeservice.ci.access import (
    DEVELOPER,
    OWNER,
    pipeline_of,
    readable_project,
    writable_project,
)
from fakeservice.ci.artifacts import reports
from fakeservice.ci.pipelines import operations as pipeline_ops
from fakeservice.ci.pipelines.creation import create_for_ref
from fakeservice.ci.pipelines.lists import (
    PIPELINE_ORDER_BY,
    PIPELINE_SCOPES,
    PIPELINE_SOURCES,
    PIPELINE_STATUSES,
    project_pipelines,
)
from fakeservice.ci.route_common import ID, PIPELINE_ID, act, renderer
from fakeservice.ci.router import api
from fakeservice.ci.runner.simulation import settle
from fakeservice.ci.views import variables
from fakeservice.web.conditional import require_unmodified_since
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL, DATETIME, HASH, STR, Array, Param
from fakeservice.web.routing import REQUIRED

VARIABLE_TYPES = ("env_var", "file")

LIST_PARAMS = (
    ID,
    Param("scope", STR, values=PIPELINE_SCOPES),
    Param("status", STR, values=PIPELINE_STATUSES),
    Param("source", STR, values=PIPELINE_SOURCES),
    Param("ref", STR),
    Param("sha", STR),
    Param("yaml_errors", BOOL),
    Param("username", STR),
    Param("updated_after", DATETIME),
    Param("updated_before", DATETIME),
    Param("order_by", STR, default="id", values=PIPELINE_ORDER_BY),
    Param("sort", STR, default="desc", values=("asc", "desc")),
)

CREATE_PARAMS = (
    ID,
    Param("ref", STR, required=True),
    Param(
        "variables",
        Array(HASH),
        items=(
            Param("key", STR, required=True),
            Param("value", STR),
            Param("variable_type", STR, default="env_var", values=VARIABLE_TYPES),
        ),
    ),
)


@api.get("/projects/:id/pipelines", params=LIST_PARAMS, paginated=True)
def list_pipelines(ctx: Context) -> Response:
    """List project pipelines (child pipelines are left out)."""
    project = readable_project(ctx)
    selection = project_pipelines(ctx.store, project, ctx.params)
    return ctx.paginate(selection, renderer(ctx).pipeline_item)


@api.get("/projects/:id/pipelines/:pipeline_id", params=(ID, PIPELINE_ID))
def get_pipeline(ctx: Context) -> Any:
    """Get a single pipeline (child pipelines too)."""
    project = readable_project(ctx)
    return renderer(ctx).pipeline(pipeline_of(ctx, project))


@api.post("/projects/:id/pipeline", params=CREATE_PARAMS, auth=REQUIRED)
def create_pipeline(ctx: Context) -> Any:
    """Create a pipeline for a branch or tag from its CI configuration file."""
    project = writable_project(ctx, DEVELOPER)
    pipeline = create_for_ref(
        ctx.store,
        project,
        ctx.params["ref"],
        source="api",
        user_id=ctx.user.id,
        variables=ctx.get("variables") or (),
        now=ctx.now,
    )
    settle(ctx.store, ctx.now)
    return renderer(ctx).pipeline(pipeline)


@api.post("/projects/:id/pipelines/:pipeline_id/retry", params=(ID, PIPELINE_ID), auth=REQUIRED)
def retry_pipeline(ctx: Context) -> Any:
    """Retry the failed and canceled jobs of a pipeline."""
    pipeline = act(
        ctx, pipeline_of, lambda found: pipeline_ops.retry(ctx.store, found, ctx.user.id, ctx.now)
    )
    return renderer(ctx).pipeline(pipeline)


@api.post(
    "/projects/:id/pipelines/:pipeline_id/cancel",
    params=(ID, PIPELINE_ID),
    auth=REQUIRED,
    status=200,
)
def cancel_pipeline(ctx: Context) -> Any:
    """Cancel every cancelable job of a pipeline (and of its child pipelines)."""
    pipeline = act(ctx, pipeline_of, lambda found: pipeline_ops.cancel(ctx.store, found, ctx.now))
    return renderer(ctx).pipeline(pipeline)


@api.delete("/projects/:id/pipelines/:pipeline_id", params=(ID, PIPELINE_ID), auth=REQUIRED)
def delete_pipeline(ctx: Context) -> None:
    """Delete a pipeline, its child pipelines and their jobs (Owner only)."""
    project = readable_project(ctx)
    pipeline = pipeline_of(ctx, project)
    writable_project(ctx, OWNER)
    require_unmodified_since(ctx.request, pipeline.updated_at)
    pipeline_ops.delete(ctx.store, pipeline)


@api.get("/projects/:id/pipelines/:pipeline_id/variables", params=(ID, PIPELINE_ID), paginated=True)
def pipeline_variables(ctx: Context) -> Response:
    """The variables a pipeline was created with."""
    project = readable_project(ctx)
    return ctx.paginate_list(variables(pipeline_of(ctx, project)), lambda item: item)


@api.get("/projects/:id/pipelines/:pipeline_id/test_report", params=(ID, PIPELINE_ID))
def test_report(ctx: Context) -> Any:
    """The pipeline's test report (from its builds' JUnit reports)."""
    project = readable_project(ctx)
    return reports.report(ctx.store, pipeline_of(ctx, project), ctx.now)


@api.get("/projects/:id/pipelines/:pipeline_id/test_report_summary", params=(ID, PIPELINE_ID))
def test_report_summary(ctx: Context) -> Any:
    """The summary of the pipeline's test report."""
    project = readable_project(ctx)
    return reports.summary(ctx.store, pipeline_of(ctx, project), ctx.now)
