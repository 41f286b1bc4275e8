"""Commit statuses endpoints: post a status for a commit (Developer), and list the
statuses of a commit (whoever may read the code).

The list holds every job of the commit's pipelines (builds, bridges and external
statuses), oldest first; retried ones only with ``all=true``; filters ``ref``, ``stage``,
``name``, ``pipeline_id``; ``order_by`` ``id`` or ``pipeline_id``, ``sort`` ``asc`` or
``desc``. A sha that names no commit is ``404 Commit Not Found``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.models import jobs
from fakeservice.core.errors import NotFound
from fakeservice.members.models import DEVELOPER
from fakeservice.projects.lookup import project_with_role
from fakeservice.repository.guards import readable
from fakeservice.repository.models import read_repository
from fakeservice.statuses import models
from fakeservice.statuses.views import status_view
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL, FLOAT, INT, STR, Param
from fakeservice.web.routing import PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("statuses")
ID = Param("id", STR, required=True)
SHA = Param("sha", STR, required=True)


@api.post(
    "/projects/:id/statuses/:sha",
    params=(
        ID,
        SHA,
        Param("state", STR, required=True, values=models.STATES),
        Param("ref", STR),
        Param("name", STR),
        Param("context", STR),
        Param("target_url", STR),
        Param("description", STR),
        Param("coverage", FLOAT),
        Param("pipeline_id", INT),
    ),
    auth=REQUIRED,
)
def post_status(ctx: Context) -> Any:
    """Report a status on a commit; it joins (or makes) a pipeline for that commit."""
    project = project_with_role(ctx, DEVELOPER)
    p = ctx.params
    report = models.Report(
        state=p["state"],
        name=p.get("name") or p.get("context") or "default",
        ref=p.get("ref") or None,
        target_url=p.get("target_url"),
        description=p.get("description"),
        coverage=p.get("coverage"),
        pipeline_id=p.get("pipeline_id"),
    )
    repo = read_repository(ctx.store, project)
    job = models.post(ctx.store, project, repo, p["sha"], report, ctx.user.id, ctx.now)
    return status_view(ctx.store, job, ctx.base_url)


@api.get(
    "/projects/:id/repository/commits/:sha/statuses",
    params=(
        ID,
        SHA,
        Param("ref", STR),
        Param("stage", STR),
        Param("name", STR),
        Param("pipeline_id", INT),
        Param("all", BOOL, default=False),
        Param("order_by", STR, default="id", values=("id", "pipeline_id")),
        Param("sort", STR, default="asc", values=("asc", "desc")),
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_statuses(ctx: Context) -> Response:
    """The statuses of a commit (latest attempts unless ``all``)."""
    project, repo = readable(ctx)
    p = ctx.params
    info = repo.find_commit(p["sha"])
    if info is None:
        raise NotFound("Commit")
    index = "by_project_sha" if p["order_by"] == "id" else "by_project_sha_pipeline"
    wanted = {
        "ref": p.get("ref"),
        "stage": p.get("stage"),
        "name": p.get("name"),
        "pipeline_id": p.get("pipeline_id"),
    }
    checks = [(field, value) for field, value in wanted.items() if value is not None]
    keep_retried = p["all"]
    selection = jobs(ctx.store).select(
        index,
        [(project.id, info.id)],
        where=lambda job: (
            (keep_retried or not job.retried)
            and all(getattr(job, field) == value for field, value in checks)
        ),
        reverse=p["sort"] == "desc",
    )
    return ctx.paginate(selection, lambda job: status_view(ctx.store, job, ctx.base_url))
