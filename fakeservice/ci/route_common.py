"""What the CI route modules share: the path parameters of projects, jobs and pipelines,
the per-request :class:`~fakeservice.ci.views.Renderer`, and the steps of an action on a
job or pipeline (Developer; the simulation settles afterwards)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fakeservice.ci.access import DEVELOPER, writable_project
from fakeservice.ci.runner.simulation import settle
from fakeservice.ci.views import Renderer
from fakeservice.projects.models import Project
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param

ID = Param("id", STR, required=True)
JOB_ID = Param("job_id", INT, required=True)
PIPELINE_ID = Param("pipeline_id", INT, required=True)
T = TypeVar("T")


def renderer(ctx: Context) -> Renderer:
    """A renderer for this request (its base URL and clock reading)."""
    return Renderer(ctx.store, ctx.base_url, ctx.now)


def act(ctx: Context, find: Callable[[Context, Project], T], action: Callable[[T], T]) -> T:
    """Apply ``action`` to the record ``find`` names in the project (Developer), let the
    simulation settle, and answer the record the action returned."""
    project = writable_project(ctx, DEVELOPER)
    record = action(find(ctx, project))
    settle(ctx.store, ctx.now)
    return record
