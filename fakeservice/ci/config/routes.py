"""CI configuration validation (seed 000 §4.4): ``POST /ci/lint`` (instance level),
``POST /projects/:id/ci/lint`` (with the project's context, optionally a dry run) and
``GET /projects/:id/ci/lint`` (the project's own CI file at the head of its default
branch). All go through the same engine as pipeline creation; all answer 200.

The instance endpoint needs no authentication: the fake's instance allows sign-up without
restrictions, the condition under which the service lets anonymous callers lint.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci import config as engine
from fakeservice.ci.access import DEVELOPER, writable_project
from fakeservice.ci.pipelines.creation import local_reader
from fakeservice.ci.repo import ci_config_path, head_sha, read_text, repository
from fakeservice.ci.route_common import ID
from fakeservice.ci.router import api
from fakeservice.core.store import Store
from fakeservice.projects.lookup import project_from_path
from fakeservice.projects.models import Project
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, STR, Param
from fakeservice.web.routing import PUBLIC

CONTENT = Param("content", STR, required=True)
DRY_RUN = Param("dry_run", BOOL, default=False)
INCLUDE_JOBS = Param("include_jobs", BOOL, default=False)


@api.post(
    "/ci/lint",
    params=(CONTENT, Param("include_merged_yaml", BOOL, default=False), INCLUDE_JOBS),
    auth=PUBLIC,
    status=200,
)
def instance_lint(ctx: Context) -> Any:
    """Validate a CI configuration (no project context: local includes cannot be read)."""
    config = engine.parse(ctx.params["content"])
    return engine.instance_lint(
        config,
        include_merged_yaml=bool(ctx.get("include_merged_yaml")),
        include_jobs=bool(ctx.get("include_jobs")),
    )


def _lint(ctx: Context, project: Project, content: str | None, sha: str | None) -> Any:
    store: Store = ctx.store
    read_local = local_reader(store, project, sha) if sha else (lambda path: None)
    project_url = f"{ctx.base_url}/{project.path_with_namespace}"
    config = engine.parse(
        content,
        read_local=read_local,
        project_path=project.path_with_namespace,
        sha=sha,
        project_url=project_url,
    )
    include_jobs = bool(ctx.get("include_jobs"))
    if not ctx.get("dry_run"):
        return engine.project_lint(config, include_jobs=include_jobs)
    ref = ctx.get("ref") or ctx.get("dry_run_ref") or project.default_branch or "main"
    repo = repository(store, project)
    tag = repo.branch(ref) is None and repo.tag(ref) is not None
    return engine.dry_run_lint(
        config,
        include_jobs=include_jobs,
        ref=ref,
        tag=tag,
        source="push",
        default_branch=project.default_branch or "main",
        project_path=project.path_with_namespace,
        sha=repo.resolve(ref) or sha,
    )


@api.post(
    "/projects/:id/ci/lint",
    params=(ID, CONTENT, DRY_RUN, INCLUDE_JOBS, Param("ref", STR)),
    status=200,
)
def project_lint(ctx: Context) -> Any:
    """Validate a CI configuration with the project's context (local includes, dry run)."""
    project = writable_project(ctx, DEVELOPER)
    return _lint(ctx, project, ctx.params["content"], head_sha(ctx.store, project))


@api.get(
    "/projects/:id/ci/lint",
    params=(
        ID,
        DRY_RUN,
        INCLUDE_JOBS,
        Param("ref", STR),
        Param("dry_run_ref", STR),
        Param("content_ref", STR),
        Param("sha", STR),
    ),
)
def project_file_lint(ctx: Context) -> Any:
    """Validate the project's CI file at the head of its default branch."""
    project = project_from_path(ctx)
    wanted = ctx.get("content_ref") or ctx.get("sha")
    sha = repository(ctx.store, project).resolve(wanted) if wanted else head_sha(ctx.store, project)
    content = read_text(ctx.store, project, sha, ci_config_path(project)) if sha else None
    return _lint(ctx, project, content, sha)
