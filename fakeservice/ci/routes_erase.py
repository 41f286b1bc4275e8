"""``POST /projects/:id/jobs/:job_id/erase`` (not in the spec; the real service has it):
remove a finished job's artifacts and log, set ``erased_at``, answer the job (201).

Maintainers may erase any job, developers the jobs they started; a job that is not
finished, or has neither artifacts nor a log, is not erasable (403).
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.access import build_of, writable_project
from fakeservice.ci.artifacts import job_artifacts as artifacts
from fakeservice.ci.machines import FINISHED
from fakeservice.ci.models import Job, jobs
from fakeservice.ci.route_common import ID, JOB_ID, renderer
from fakeservice.ci.router import api
from fakeservice.core.errors import Forbidden
from fakeservice.members.models import DEVELOPER, MAINTAINER
from fakeservice.projects.lookup import access_level
from fakeservice.web.context import Context
from fakeservice.web.routing import REQUIRED


def erasable(job: Job) -> bool:
    has_artifacts = job.archive is not None or job.junit_gz is not None
    return job.status in FINISHED and (has_artifacts or job.trace is not None)


@api.post("/projects/:id/jobs/:job_id/erase", params=(ID, JOB_ID), auth=REQUIRED)
def erase_job(ctx: Context) -> Any:
    """Erase a job's artifacts and log (201 with the job)."""
    project = writable_project(ctx, DEVELOPER)
    job = build_of(ctx, project)
    if access_level(ctx, project) < MAINTAINER and job.user_id != ctx.user.id:
        raise Forbidden()
    if not erasable(job):
        raise Forbidden("Job is not erasable!")
    artifacts.erase(ctx.store, job)
    jobs(ctx.store).update(job, trace=None, erased_at=ctx.now)
    return renderer(ctx).job(job)
