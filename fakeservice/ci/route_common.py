"""What the CI route modules share: the path parameters of projects, jobs and pipelines,
and the per-request :class:`~fakeservice.ci.views.Renderer`."""

from __future__ import annotations

from fakeservice.ci.views import Renderer
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param

ID = Param("id", STR, required=True)
JOB_ID = Param("job_id", INT, required=True)
PIPELINE_ID = Param("pipeline_id", INT, required=True)


def renderer(ctx: Context) -> Renderer:
    """A renderer for this request (its base URL and clock reading)."""
    return Renderer(ctx.store, ctx.base_url, ctx.now)
