"""Who may read and act on a project's CI records, and the lookups every CI route starts with.

* reading pipelines, jobs, logs and artifacts: Reporter and up, or anyone who can see
  the project when its jobs are public (``public_jobs``); otherwise 403;
* creating, retrying, canceling, playing, keeping artifacts: Developer;
* deleting artifacts: Maintainer (seed 000 §8); deleting a pipeline: Owner.

A project the caller cannot see answers ``404 Project Not Found``; a pipeline of another
project ``404 Pipeline Not Found``; a job id that is not a build of the project
``404 Not found``.
"""

from __future__ import annotations

from fakeservice.ci.job_token_scope import check_job_token
from fakeservice.ci.models import Job, Pipeline, find_build, find_pipeline
from fakeservice.core.errors import Forbidden, or_404
from fakeservice.members.models import DEVELOPER, MAINTAINER, OWNER, REPORTER
from fakeservice.projects.lookup import access_level, project_from_path, require_access
from fakeservice.projects.models import Project
from fakeservice.web.context import Context

__all__ = [
    "DEVELOPER",
    "MAINTAINER",
    "OWNER",
    "build_of",
    "can_read",
    "pipeline_of",
    "readable_project",
    "require_access",
    "writable_project",
]


def can_read(ctx: Context, project: Project) -> bool:
    level = project.features.get("builds", "enabled")
    if level == "disabled":
        return ctx.is_admin
    if project.public_jobs and level != "private":
        return True
    return access_level(ctx, project) >= REPORTER


def readable_project(ctx: Context) -> Project:
    """The project of ``:id`` when the caller may read its CI records."""
    project = project_from_path(ctx)
    if not can_read(ctx, project):
        raise Forbidden()
    check_job_token(ctx, project)
    return project


def writable_project(ctx: Context, level: int = DEVELOPER) -> Project:
    """The project of ``:id`` when the caller has at least ``level`` in it."""
    project = project_from_path(ctx)
    require_access(ctx, project, level)
    return project


def pipeline_of(ctx: Context, project: Project) -> Pipeline:
    return or_404(find_pipeline(ctx.store, project.id, ctx.params["pipeline_id"]), "Pipeline")


def build_of(ctx: Context, project: Project) -> Job:
    return or_404(find_build(ctx.store, project.id, ctx.params["job_id"]))
