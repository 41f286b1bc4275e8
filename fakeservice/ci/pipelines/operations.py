"""Operations on existing pipelines: retry, cancel, delete.

* retry: every failed or canceled job of the latest attempt is cloned into a new one,
  skipped jobs are processed again, and the pipeline is processed (it answers even when
  nothing was retried);
* cancel: every cancelable job of the pipeline and of its descendants is canceled at
  once, then each pipeline's status is derived again (children first);
* delete: the pipeline, its descendants and all their jobs are removed.
"""

from __future__ import annotations

import datetime as dt

from fakeservice.ci.flow import refresh_pipeline
from fakeservice.ci.jobs.operations import cancel as cancel_job
from fakeservice.ci.jobs.operations import clone, reopen_skipped
from fakeservice.ci.models import (
    EXTERNAL,
    Pipeline,
    jobs,
    latest_jobs,
    pipeline_jobs,
    pipeline_tree,
    pipelines,
)
from fakeservice.core.store import Store

RETRIED_STATUSES = ("failed", "canceled")


def retry(store: Store, pipeline: Pipeline, user_id: int | None, now: dt.datetime) -> Pipeline:
    for job in latest_jobs(store, pipeline.id):
        if job.status in RETRIED_STATUSES and job.kind != EXTERNAL:
            clone(store, job, user_id, now)
    reopen_skipped(store, pipeline, now, None)
    refresh_pipeline(store, pipeline, now)
    return pipeline


def cancel(store: Store, pipeline: Pipeline, now: dt.datetime) -> Pipeline:
    tree = pipeline_tree(store, pipeline)
    for member in tree:
        for job in latest_jobs(store, member.id):
            cancel_job(store, job, now, refresh=False)
    for member in reversed(tree):
        refresh_pipeline(store, member, now)
    return pipeline


def delete(store: Store, pipeline: Pipeline) -> None:
    job_table = jobs(store)
    pipeline_table = pipelines(store)
    for member in reversed(pipeline_tree(store, pipeline)):
        for job in pipeline_jobs(store, member.id):
            job_table.delete(job)
        pipeline_table.delete(member)
