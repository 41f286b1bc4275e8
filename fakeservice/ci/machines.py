"""Job and pipeline state machines, the composite pipeline status, and stage processing.

* :data:`JOB_MACHINE` is the only way a job's ``status`` changes. Its effects stamp
  ``queued_at`` (entering pending), ``started_at`` (entering running) and ``finished_at``
  (success, failed, canceled; not skipped) from the ``clock=`` (or ``now=``) passed to
  ``fire``; ``drop`` stores ``failure_reason`` (default ``unknown_failure``).
* :func:`composite_status` is the service's composite rule over ``(status, allow_failure)``
  pairs; :func:`sync_pipeline` derives a pipeline's status from its jobs and moves it through
  :data:`PIPELINE_MACHINE`, whose effects keep ``started_at``, ``finished_at``, ``duration``,
  ``queued_duration`` and ``updated_at``.
* :func:`process_pipeline` is the service's stage processing: each ``created`` job whose
  prior stages (or ``needs``) are complete is enqueued, made manual, scheduled or skipped.

Records are duck-typed (see :class:`JobRecord` and :class:`PipelineRecord`).

Decisions where the service is silent or the seed overrides it: a pipeline without jobs is
``skipped``; an ``enqueue`` of a finished pipeline goes to ``pending`` (the seed's retry row)
rather than the service's ``running``; a pipeline that becomes active again loses its
``finished_at``/``duration``; pipeline ``duration`` is, as the service computes it, the
length of the union of the running periods of its latest jobs in whole seconds
(:func:`running_seconds`); ``queued_duration`` is ``started_at - created_at`` in whole
seconds, null when zero (as the service answers).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from fakeservice.core.clock import Clock
from fakeservice.core.machine import Machine

JOB_STATES: tuple[str, ...] = (
    "created",
    "waiting_for_resource",
    "preparing",
    "pending",
    "running",
    "success",
    "failed",
    "canceling",
    "canceled",
    "skipped",
    "manual",
    "scheduled",
)
# a pipeline's status is derived from its jobs' statuses and takes the same values
PIPELINE_STATES: tuple[str, ...] = JOB_STATES

CANCELABLE: frozenset[str] = frozenset(
    {"created", "waiting_for_resource", "preparing", "pending", "running", "scheduled", "manual"}
)
RETRYABLE: frozenset[str] = frozenset({"success", "failed", "canceled"})
PLAYABLE: frozenset[str] = frozenset({"manual"})
ACTIVE: frozenset[str] = frozenset(
    {"waiting_for_resource", "preparing", "pending", "running", "canceling"}
)
COMPLETED: frozenset[str] = frozenset({"success", "failed", "canceled", "skipped"})
FINISHED: frozenset[str] = frozenset({"success", "failed", "canceled"})
PASSED_WITH_WARNINGS: frozenset[str] = frozenset({"failed", "canceled"})
IGNORED: frozenset[str] = frozenset({"manual"})
DEFAULT_FAILURE_REASON = "unknown_failure"


class JobRecord(Protocol):
    """What the job machine reads and writes on a job."""

    status: str
    queued_at: dt.datetime | None
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    failure_reason: str | None
    allow_failure: bool
    retried: bool


class ProcessableJob(JobRecord, Protocol):
    """A job as :func:`process_pipeline` sees it (``needs`` None means stage ordering)."""

    name: str
    stage_idx: int
    when: str
    needs: Sequence[str] | None


class PipelineRecord(Protocol):
    status: str
    created_at: dt.datetime
    updated_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    duration: int | None
    queued_duration: int | None


def context_now(context: dict[str, Any]) -> dt.datetime:
    """The time of a transition: ``now=`` or ``clock=`` from the ``fire`` context."""
    now = context.get("now")
    if isinstance(now, dt.datetime):
        return now
    clock = context.get("clock")
    if isinstance(clock, Clock):
        return clock.now()
    if clock is not None and hasattr(clock, "now"):
        return clock.now()
    raise TypeError("fire() needs clock= or now= to stamp the transition")


def _touch(record: Any, now: dt.datetime) -> None:
    if hasattr(record, "updated_at"):
        record.updated_at = now


# -- jobs -------------------------------------------------------------------------------------


def _job_queued(job: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    job.queued_at = context_now(context)


def _job_started(job: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    job.started_at = context_now(context)


def _job_finished(job: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    job.finished_at = context_now(context)


def _job_failed(job: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    job.failure_reason = context.get("failure_reason") or DEFAULT_FAILURE_REASON


def _job_touched(job: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    _touch(job, context_now(context))


_BEFORE_RUN = ("created", "waiting_for_resource", "preparing", "pending")

JOB_MACHINE = Machine(
    "job",
    JOB_STATES,
    [
        ("enqueue", ("created", "skipped", "manual", "scheduled"), "pending"),
        ("enqueue", ("waiting_for_resource", "preparing"), "pending"),
        ("request_resource", ("created", "skipped", "manual", "scheduled"), "waiting_for_resource"),
        ("prepare", ("created", "skipped", "manual", "scheduled"), "preparing"),
        ("run", "pending", "running"),
        ("success", (*_BEFORE_RUN, "running"), "success"),
        ("drop", (*_BEFORE_RUN, "running", "manual", "scheduled"), "failed"),
        ("skip", _BEFORE_RUN, "skipped"),
        ("start_cancel", "running", "canceling"),
        ("cancel", (*sorted(CANCELABLE), "canceling"), "canceled"),
        ("actionize", "created", "manual"),
        ("schedule", "created", "scheduled"),
        ("unschedule", "scheduled", "manual"),
        ("play", "manual", "pending"),
        ("process", ("skipped", "manual"), "created"),
    ],
    effects={
        "pending": [_job_queued],
        "running": [_job_started],
        "success": [_job_finished],
        "failed": [_job_failed, _job_finished],
        "canceled": [_job_finished],
        "*": [_job_touched],
    },
)


def _seconds(later: dt.datetime, earlier: dt.datetime) -> float:
    return (later - earlier).total_seconds()


def job_duration(job: JobRecord, now: dt.datetime) -> float | None:
    """``(finished_at or now) - started_at`` in seconds; None if the job never started."""
    if job.started_at is None:
        return None
    return _seconds(job.finished_at or now, job.started_at)


def job_queued_duration(job: JobRecord, now: dt.datetime) -> float | None:
    """``(started_at or now) - queued_at`` in seconds; None if the job was never queued."""
    if job.queued_at is None:
        return None
    return _seconds(job.started_at or now, job.queued_at)


# -- composite status ----------------------------------------------------------------------------


def _only_of(present: set[str], *names: str) -> bool:
    return bool(present) and present <= set(names)


def composite_status(
    jobs: Iterable[tuple[str, bool]], *, dag: bool = False, empty: str = "skipped"
) -> str:
    """The service's composite status of ``(status, allow_failure)`` pairs.

    A failed or canceled job with ``allow_failure`` counts as success-with-warnings; a
    manual job with ``allow_failure`` is ignored. The first matching rule wins. ``dag``
    gives the variant used for the ``needs`` of a job. No jobs at all gives ``empty``.
    """
    present: set[str] = set()
    for status, allow_failure in jobs:
        if allow_failure and status in PASSED_WITH_WARNINGS:
            present.add("success_with_warnings")
        elif allow_failure and status in IGNORED:
            present.add("ignored")
        else:
            present.add(status)
    if not present:
        return empty
    if dag and present & {"skipped", "ignored"}:
        return "skipped"
    if dag and not _only_of(
        present, "success", "failed", "canceled", "skipped", "success_with_warnings"
    ):
        return "pending"
    rules: tuple[tuple[str, str, tuple[str, ...]], ...] = (
        ("only", "skipped", ("skipped", "ignored")),
        ("only", "success", ("success", "skipped", "success_with_warnings", "ignored")),
        ("only", "created", ("created", "success_with_warnings", "ignored")),
        ("only", "preparing", ("preparing", "success_with_warnings", "ignored")),
        (
            "only",
            "canceled",
            ("canceled", "success", "skipped", "success_with_warnings", "ignored"),
        ),
        (
            "only",
            "pending",
            ("pending", "created", "skipped", "success_with_warnings", "ignored"),
        ),
        ("any", "running", ("running", "pending")),
        ("any", "waiting_for_resource", ("waiting_for_resource",)),
        ("any", "manual", ("manual",)),
        ("any", "scheduled", ("scheduled",)),
        ("any", "preparing", ("preparing",)),
        ("any", "running", ("created",)),
        ("any", "canceling", ("canceling",)),
    )
    for kind, result, names in rules:
        if kind == "only" and _only_of(present, *names):
            return result
        if kind == "any" and present & set(names):
            return result
    return "failed"


def has_warnings(jobs: Iterable[tuple[str, bool]]) -> bool:
    """Whether some allowed-to-fail job failed or was canceled (``success`` with warnings)."""
    return any(allow and status in PASSED_WITH_WARNINGS for status, allow in jobs)


# -- pipelines ---------------------------------------------------------------------------------------


def _whole_seconds(later: dt.datetime, earlier: dt.datetime) -> int:
    return int(_seconds(later, earlier))


def _pipeline_started(pipeline: Any, old: str, _event: str, context: dict[str, Any]) -> None:
    if old in _BEFORE_RUN and pipeline.started_at is None:
        now = context_now(context)
        pipeline.started_at = now
        pipeline.queued_duration = _whole_seconds(now, pipeline.created_at) or None
    _reopen(pipeline)


DURATION_STATUSES = frozenset({"success", "failed", "running", "canceled"})


def running_seconds(jobs: Iterable[Any], now: dt.datetime) -> int | None:
    """A pipeline's duration as the service computes it: the length of the union of the
    running periods of its latest jobs (queue time and overlaps not counted), whole
    seconds; None when no job ever ran."""
    periods = sorted(
        (job.started_at, job.finished_at or now)
        for job in latest(jobs)
        if job.status in DURATION_STATUSES and job.started_at is not None
    )
    if not periods:
        return None
    total = 0.0
    start, end = periods[0]
    for begin, finish in periods[1:]:
        if begin > end:
            total += _seconds(end, start)
            start, end = begin, finish
        elif finish > end:
            end = finish
    total += _seconds(end, start)
    return int(total)


def _pipeline_duration(pipeline: Any, context: dict[str, Any]) -> int | None:
    jobs = context.get("jobs")
    now = context_now(context)
    if jobs is not None:
        return running_seconds(jobs, now)
    started = pipeline.started_at
    return None if started is None else _whole_seconds(now, started)


def _pipeline_finished(pipeline: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    pipeline.finished_at = context_now(context)
    pipeline.duration = _pipeline_duration(pipeline, context)


def _pipeline_blocked(pipeline: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    if pipeline.started_at is not None:
        pipeline.duration = _pipeline_duration(pipeline, context)


def _pipeline_reopened(pipeline: Any, _old: str, _event: str, _context: dict[str, Any]) -> None:
    _reopen(pipeline)


def _reopen(pipeline: Any) -> None:
    pipeline.finished_at = None
    pipeline.duration = None


def _pipeline_touched(pipeline: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    _touch(pipeline, context_now(context))


STATUS_EVENTS: dict[str, str] = {
    "waiting_for_resource": "request_resource",
    "preparing": "prepare",
    "pending": "enqueue",
    "running": "run",
    "success": "succeed",
    "failed": "drop",
    "canceling": "start_cancel",
    "canceled": "cancel",
    "skipped": "skip",
    "manual": "block",
    "scheduled": "delay",
}


def _all_but(target: str) -> tuple[str, ...]:
    return tuple(state for state in PIPELINE_STATES if state != target)


PIPELINE_MACHINE = Machine(
    "pipeline",
    PIPELINE_STATES,
    [(event, _all_but(target), target) for target, event in STATUS_EVENTS.items()],
    effects={
        "running": [_pipeline_started],
        "pending": [_pipeline_reopened],
        "waiting_for_resource": [_pipeline_reopened],
        "preparing": [_pipeline_reopened],
        "success": [_pipeline_finished],
        "failed": [_pipeline_finished],
        "canceled": [_pipeline_finished],
        "manual": [_pipeline_blocked],
        "*": [_pipeline_touched],
    },
)


def latest(jobs: Iterable[Any]) -> list[Any]:
    """The jobs of the latest attempt (retried ones left out)."""
    return [job for job in jobs if not getattr(job, "retried", False)]


def pipeline_status(jobs: Iterable[Any]) -> str:
    """The derived status of a pipeline from its jobs (latest attempt only)."""
    return composite_status((job.status, bool(job.allow_failure)) for job in latest(jobs))


def sync_pipeline(pipeline: PipelineRecord, jobs: Iterable[Any], **context: Any) -> str:
    """Move ``pipeline`` to the status derived from ``jobs``; returns the new status.

    The move goes through :data:`PIPELINE_MACHINE` (so timestamps follow); a derived
    ``created`` never moves a pipeline, as in the service.
    """
    jobs = list(jobs)
    status = pipeline_status(jobs)
    if status != pipeline.status and status != "created":
        PIPELINE_MACHINE.fire(pipeline, STATUS_EVENTS[status], jobs=jobs, **context)
    return pipeline.status


# -- stage processing --------------------------------------------------------------------------------


def _valid_prior_statuses(job: ProcessableJob) -> tuple[str, ...]:
    dag = job.needs is not None
    if job.when in ("on_success", "manual", "delayed"):
        return ("success",) if dag else ("success", "skipped")
    if job.when == "on_failure":
        return ("failed",)
    if job.when == "always":
        return ("success", "failed", "skipped")
    return ()


def _prior_status(job: ProcessableJob, jobs: Sequence[ProcessableJob]) -> str:
    if job.needs is not None:
        needed = set(job.needs)
        return composite_status(
            ((j.status, bool(j.allow_failure)) for j in jobs if j.name in needed),
            dag=True,
            empty="success",
        )
    return composite_status(
        ((j.status, bool(j.allow_failure)) for j in jobs if j.stage_idx < job.stage_idx),
        empty="success",
    )


def process_pipeline(jobs: Iterable[ProcessableJob], **context: Any) -> list[ProcessableJob]:
    """Advance every ``created`` job whose prior stages (or needs) are complete.

    Walks jobs in stage order (as the service's atomic processing does) and fires
    ``enqueue`` (``request_resource`` for a job of a resource group), ``actionize``
    (manual), ``schedule`` (delayed) or ``skip`` through
    :data:`JOB_MACHINE`. Returns the jobs that changed, in that order.
    """
    current = sorted(latest(jobs), key=lambda j: j.stage_idx)
    changed: list[ProcessableJob] = []
    for job in current:
        if job.status != "created":
            continue
        prior = _prior_status(job, current)
        if prior not in COMPLETED:
            continue
        if prior not in _valid_prior_statuses(job):
            event = "skip"
        elif job.when == "manual":
            event = "actionize"
        elif job.when == "delayed":
            event = "schedule"
        elif getattr(job, "resource_group", None):
            event = "request_resource"  # waits until its resource group is free
        else:
            event = "enqueue"
        JOB_MACHINE.fire(job, event, **context)
        changed.append(job)
    return changed
