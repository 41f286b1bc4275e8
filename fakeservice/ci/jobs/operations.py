"""Operations on jobs: cancel, retry (a clone with a new id), play, and job-token lookup.

* cancel: a cancelable job becomes ``canceled``; any other job is returned unchanged;
* retry: allowed on the latest attempt of a ``success``, ``failed`` or ``canceled`` job
  (else ``403 Forbidden - Job is not retryable``); the job is cloned into a new one
  (new id, ``created``, then processed), the old one is marked retried, and skipped jobs
  that come after it are processed again;
* play: a ``manual`` job is queued (else ``400 Bad request - Unplayable Job``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.flow import announce, fire_job, refresh_pipeline
from fakeservice.ci.machines import CANCELABLE, PLAYABLE, RETRYABLE
from fakeservice.ci.models import EXTERNAL, Job, Pipeline, jobs, latest_jobs, pipelines
from fakeservice.ci.pipelines.creation import job_token
from fakeservice.ci.runner.outcomes import mode_of
from fakeservice.core.errors import BadRequest, Forbidden
from fakeservice.core.store import Store

NOT_RETRYABLE = "Job is not retryable"
UNPLAYABLE = "Unplayable Job"

_CLONED = (
    "environment",
    "project_id",
    "pipeline_id",
    "name",
    "stage",
    "stage_idx",
    "ref",
    "sha",
    "tag",
    "kind",
    "when",
    "allow_failure",
    "needs",
    "tag_list",
    "script",
    "start_in",
    "timeout",
    "retry",
    "coverage_regex",
    "artifacts_spec",
    "trigger",
)


def _acknowledge_seconds(store: Store, job: Job) -> float:
    """How long the runner of a job takes to acknowledge a cancel (0: at once): a running
    job of a ``timed`` runner waits for its next poll (the pickup delay)."""
    if job.status != "running":
        return 0.0
    mode, poll_seconds = mode_of(store, job.project_id)
    return poll_seconds if mode == "timed" else 0.0


def cancel(store: Store, job: Job, now: dt.datetime, *, refresh: bool = True) -> Job:
    """Cancel a cancelable job, through ``canceling`` when its runner must acknowledge."""
    delay = _acknowledge_seconds(store, job)
    if delay > 0:
        fire_job(store, job, "start_cancel", now, refresh=refresh)
        jobs(store).update(job, due_at=now + dt.timedelta(seconds=delay))
    elif job.status in CANCELABLE:
        fire_job(store, job, "cancel", now, refresh=refresh)
    return job


def retryable(job: Job) -> bool:
    return job.status in RETRYABLE and not job.retried


def clone(store: Store, job: Job, user_id: int | None, now: dt.datetime) -> Job:
    """A new attempt of ``job`` (status ``created``); the old one is marked retried."""
    new_id = store.next_id("ci_jobs")
    fields: dict[str, Any] = {name: getattr(job, name) for name in _CLONED}
    new = Job(
        id=new_id,
        created_at=now,
        user_id=user_id,
        attempt=job.attempt + 1,
        retry_of=job.id,
        token="" if job.is_bridge else job_token(new_id, job.pipeline_id, now),
        **fields,
    )
    table = jobs(store)
    table.update(job, retried=True, due_at=None)
    return announce(store, table.insert(new), now)


def reopen_skipped(store: Store, pipeline: Pipeline, now: dt.datetime, after: Job | None) -> None:
    """Process skipped jobs again: all of them, or those after ``after`` (later stages,
    or needing it)."""
    for job in latest_jobs(store, pipeline.id):
        if job.status != "skipped" or job.kind == EXTERNAL:
            continue
        later = after is None or job.stage_idx > after.stage_idx
        needing = after is not None and job.needs is not None and after.name in job.needs
        if later or needing:
            fire_job(store, job, "process", now, refresh=False)


def retry(store: Store, job: Job, user_id: int | None, now: dt.datetime) -> Job:
    if not retryable(job):
        raise Forbidden(NOT_RETRYABLE)
    new = clone(store, job, user_id, now)
    pipeline = pipelines(store).rows[job.pipeline_id]
    reopen_skipped(store, pipeline, now, job)
    refresh_pipeline(store, pipeline, now)
    return new


def play(store: Store, job: Job, user_id: int | None, now: dt.datetime) -> Job:
    if job.status not in PLAYABLE:
        raise BadRequest(UNPLAYABLE)
    if user_id is not None and user_id != job.user_id:
        jobs(store).update(job, user_id=user_id)
    fire_job(store, job, "request_resource" if job.resource_group else "play", now)
    return job


def token_lookup(store: Store, secret: str) -> tuple[Job, bool, int] | None:
    """The :data:`~fakeservice.web.auth.JOB_TOKEN_LOOKUP` listener: a job token's job."""
    table = store.tables.get("ci_jobs")
    if table is None:
        return None
    job = table.by("token", secret)
    if job is None or job.user_id is None:
        return None
    return job, job.status == "running", job.user_id
