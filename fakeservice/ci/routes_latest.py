"""``GET /projects/:id/pipelines/latest`` (not in the spec; the real service has it): the
newest pipeline of ``ref`` (the default branch by default) built for the ref's current
head commit, with the single pipeline's fields. None: 403, as the real service answers."""

from __future__ import annotations

from typing import Any

from fakeservice.ci.access import readable_project
from fakeservice.ci.models import latest_for_ref
from fakeservice.ci.repo import repository
from fakeservice.ci.route_common import ID, renderer
from fakeservice.ci.router import api
from fakeservice.core.errors import Forbidden
from fakeservice.web.context import Context
from fakeservice.web.params import STR, Param


@api.get("/projects/:id/pipelines/latest", params=(ID, Param("ref", STR)))
def latest_pipeline(ctx: Context) -> Any:
    """The latest pipeline of a ref (the default branch when ``ref`` is not given)."""
    project = readable_project(ctx)
    ref = ctx.get("ref") or project.default_branch or ""
    head = repository(ctx.store, project).resolve(ref) if ref else None
    pipeline = latest_for_ref(ctx.store, project.id, ref) if head else None
    if pipeline is None or pipeline.sha != head:
        raise Forbidden()
    return renderer(ctx).pipeline(pipeline)
