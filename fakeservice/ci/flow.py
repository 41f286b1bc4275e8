"""The one place CI statuses change: fire a job event, keep indexes and the pipeline in step.

:func:`fire_job` fires an event through :data:`~fakeservice.ci.machines.JOB_MACHINE`,
reindexes the job, recomputes its runner due time and (unless told not to) refreshes its
pipeline. :func:`refresh_pipeline` runs stage processing (enqueue, make manual, schedule
or skip what became ready), starts bridges that became pending, derives the pipeline's
status through :data:`~fakeservice.ci.machines.PIPELINE_MACHINE`, and lets a finished
downstream pipeline settle the bridge that triggered it. Bridges are started and settled
by the listeners of :data:`BRIDGE_PENDING` and :data:`DOWNSTREAM_COMPLETED`
(:mod:`fakeservice.ci.pipelines.bridges`, registered by the CI area), which create pipelines and so
sit above this module.

Observers (:func:`observe`) see every job transition as ``(job, old, event, new)``; the
property tests use them to check that nothing else ever changes a status.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.ci.machines import (
    COMPLETED,
    JOB_MACHINE,
    PIPELINE_MACHINE,
    process_pipeline,
    sync_pipeline,
)
from fakeservice.ci.models import Job, Pipeline, jobs, latest_jobs, pipelines
from fakeservice.ci.runner.timing import schedule
from fakeservice.core.events import listeners
from fakeservice.core.store import Store

# ``start(store, bridge, now)`` for a bridge that became pending; ``settle(store,
# pipeline, now)`` for a finished downstream pipeline (its ``trigger_job_id`` is set).
BRIDGE_PENDING = "ci.bridge.pending"
DOWNSTREAM_COMPLETED = "ci.downstream.completed"
# ``created(store, job, now)`` for each new job; ``moved(store, job, now)`` after each
# transition of a job (the environments area follows them with deployments).
JOB_CREATED = "ci.job.created"
JOB_MOVED = "ci.job.moved"
Observer = Callable[[Job, str, str, str], None]
_observers: list[Observer] = []
_PROCESS_EVENTS = {
    "pending": "enqueue",
    "waiting_for_resource": "request_resource",
    "manual": "actionize",
    "scheduled": "schedule",
    "skipped": "skip",
}
_MAX_ROUNDS = 1000
# A job starting to run makes no other job ready: no stage processing needed.
_NO_PROCESSING = frozenset({"run"})


def observe(observer: Observer) -> Callable[[], None]:
    """Call ``observer(job, old, event, new)`` on every job transition; returns an undo."""
    _observers.append(observer)
    return lambda: _observers.remove(observer) if observer in _observers else None


def _notify(store: Store, job: Job, old: str, event: str, now: dt.datetime) -> None:
    for observer in list(_observers):
        observer(job, old, event, job.status)
    for moved in listeners(store, JOB_MOVED):
        moved(store, job, now)


def announce(store: Store, job: Job, now: dt.datetime) -> Job:
    """Tell the ``JOB_CREATED`` listeners about a job just inserted; returns it."""
    for created in listeners(store, JOB_CREATED):
        created(store, job, now)
    return job


def fire_job(
    store: Store, job: Job, event: str, now: dt.datetime, *, refresh: bool = True, **context: Any
) -> str:
    """Fire ``event`` on ``job`` at ``now``; raises IllegalTransition when not allowed."""
    old = job.status
    JOB_MACHINE.fire(job, event, now=now, **context)
    jobs(store).reindex(job)
    _notify(store, job, old, event, now)
    schedule(store, job, now)
    if refresh:
        pipeline = pipelines(store).get(job.pipeline_id)
        if pipeline is not None:
            refresh_pipeline(store, pipeline, now, process=event not in _NO_PROCESSING)
    return job.status


def fire_pipeline(store: Store, pipeline: Pipeline, event: str, now: dt.datetime) -> None:
    """Move a pipeline without jobs (a configuration error) through its machine."""
    PIPELINE_MACHINE.fire(pipeline, event, now=now)
    pipelines(store).reindex(pipeline)


def refresh_pipeline(
    store: Store, pipeline: Pipeline, now: dt.datetime, *, process: bool = True
) -> None:
    """Process stages (unless ``process`` is false), start pending bridges, and derive
    the pipeline's status."""
    table = jobs(store)
    for _ in range(_MAX_ROUNDS if process else 0):
        latest = latest_jobs(store, pipeline.id)
        changed = process_pipeline(latest, now=now)
        for job in changed:
            table.reindex(job)
            _notify(store, job, "created", _PROCESS_EVENTS.get(job.status, job.status), now)
            schedule(store, job, now)
        ready = [job for job in latest if job.is_bridge and job.status == "pending"]
        for bridge in ready:
            for start in listeners(store, BRIDGE_PENDING):
                start(store, bridge, now)
        if not changed and not ready:
            break
    latest = latest_jobs(store, pipeline.id)
    if latest:
        before = pipeline.status
        sync_pipeline(pipeline, latest, now=now)
        if pipeline.status != before:
            pipelines(store).reindex(pipeline)
    if pipeline.trigger_job_id is not None and pipeline.status in COMPLETED:
        for settle in listeners(store, DOWNSTREAM_COMPLETED):
            settle(store, pipeline, now)
