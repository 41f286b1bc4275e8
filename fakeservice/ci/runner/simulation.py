"""The simulated runner's work on jobs: pick a job up, finish it, and drive whole pipelines.

* :func:`start` picks a pending (or delayed) build up at a given time: the log begins and
  the job runs;
* :func:`finish` ends a running build with its outcome (or explicit overrides): log lines,
  coverage, status and failure reason, then the artifacts it produced (the outcome's, or
  by default files made for its ``artifacts:``, see
  :mod:`fakeservice.ci.artifacts.synthesis`); an outcome longer than the job's
  ``timeout`` (or the project's) fails it with
  ``stuck_or_timeout_failure``, and a failure that ``retry:`` covers makes a new attempt;
* :func:`advance` processes ``timed`` runner events in time order, each at its own
  timestamp, up to a time; :func:`drain` finishes every waiting build of ``instant``
  projects; :func:`run_pipeline` runs one pipeline tree to completion, whatever the mode.

Every status change goes through :func:`fakeservice.ci.flow.fire_job`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence

from fakeservice.ci.artifacts.job_artifacts import collect_artifacts
from fakeservice.ci.artifacts.synthesis import default_artifacts
from fakeservice.ci.flow import fire_job, refresh_pipeline
from fakeservice.ci.jobs.operations import clone
from fakeservice.ci.models import (
    ACTIVE_BUILD,
    Job,
    Pipeline,
    active_builds,
    jobs,
    pipeline_tree,
    pipelines,
)
from fakeservice.ci.resource_groups.models import busy as resource_busy
from fakeservice.ci.runner.assignment import picked, runner_for, timeout_of
from fakeservice.ci.runner.outcomes import (
    DEFAULT_FAILURE_REASON,
    Outcome,
    any_instant,
    mode_of,
    outcome_for,
)
from fakeservice.ci.runner.timing import next_due
from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store

RUNNER_VERSION = "17.0.0"
FINISH_STATUSES: tuple[str, ...] = ("success", "failed", "canceled", "skipped")
TIMEOUT_REASON = "stuck_or_timeout_failure"
_FOOTERS = {
    "success": "Job succeeded",
    "failed": "ERROR: Job failed: exit code 1",
    "canceled": "ERROR: Job failed: canceled",
}


class RunnerError(ApiError):
    """A runner command that cannot apply (unknown job, wrong state, bad value)."""

    def __init__(self, message: str, status: int = 409) -> None:
        self.message = message
        super().__init__({"error": message}, status=status)

    def __str__(self) -> str:
        return self.message


def _header(job: Job) -> list[str]:
    lines = [
        f"Running with fakeservice-runner {RUNNER_VERSION}",
        f"  on fakeservice-runner #{job.runner_id}",
        'Preparing the "shell" executor',
        "Getting source from Git repository",
        f"Checking out {job.sha[:8]} as detached HEAD (ref is {job.ref})...",
        'Executing "step_script" stage of the job script',
    ]
    lines.extend(f"$ {command}" for command in job.script)
    return lines


def start(store: Store, job: Job, now: dt.datetime) -> Job:
    """Pick up a pending (or delayed) build at ``now`` with the runner that can run it
    (a job no runner can run stays pending: 409)."""
    if job.is_bridge:
        raise RunnerError(f"job {job.id} is a bridge; bridges are not run by runners")
    if job.status not in ("scheduled", "pending"):
        raise RunnerError(f"job {job.id} is {job.status}; only a pending job can start")
    runner_id = runner_for(store, job)
    if runner_id is None:
        raise RunnerError(f"job {job.id} is stuck: no active runner can run it")
    if job.status == "scheduled" and job.resource_group and resource_busy(store, job):
        raise RunnerError(f"job {job.id} waits for resource group {job.resource_group}")
    if job.status == "scheduled":
        fire_job(store, job, "enqueue", now)
    jobs(store).update(job, runner_id=runner_id)
    job.trace = _header(job)
    fire_job(store, job, "run", now)
    picked(store, job, runner_id, now)
    return job


def startable(store: Store, job: Job) -> bool:
    """Whether the runner may act on ``job`` now: a waiting build needs a runner that can
    run it (a running one always can finish)."""
    return job.status not in ("pending", "scheduled") or runner_for(store, job) is not None


def _coverage(job: Job, lines: Sequence[str]) -> float | None:
    if not job.coverage_regex:
        return None
    try:
        pattern = re.compile(job.coverage_regex)
    except re.error:
        return None
    found: float | None = None
    for line in lines:
        match = pattern.search(line)
        if match is None:
            continue
        number = re.search(r"\d+(?:\.\d+)?", match.group(0))
        if number is not None:
            found = float(number.group(0))
    return found


def finish(
    store: Store,
    job: Job,
    now: dt.datetime,
    *,
    status: str | None = None,
    failure_reason: str | None = None,
    log: Sequence[str] | None = None,
    artifacts: Mapping[str, bytes] | None = None,
    coverage: float | None = None,
    refresh: bool = True,
) -> Job:
    """End a build at ``now``; unset arguments come from the job's outcome.

    A pending build is picked up first; ``skipped`` applies to a build not yet running.
    With ``refresh=False`` the caller refreshes the pipeline (batches of jobs).
    """
    outcome: Outcome = outcome_for(store, job)
    limit = timeout_of(store, job)
    timed_out = status is None and outcome.duration > limit
    if timed_out:
        status, failure_reason = "failed", TIMEOUT_REASON
    status = status or outcome.status
    if status not in FINISH_STATUSES:
        raise RunnerError(
            f"status must be one of {', '.join(FINISH_STATUSES)}, not {status!r}", 400
        )
    if job.is_bridge:
        raise RunnerError(f"job {job.id} is a bridge; bridges are not run by runners")
    if status == "skipped":
        if job.status not in ("created", "pending"):
            raise RunnerError(f"job {job.id} is {job.status}; only a waiting job can be skipped")
        fire_job(store, job, "skip", now, refresh=refresh)
        return job
    if job.status in ("pending", "scheduled"):
        start(store, job, now)
    if job.status != "running":
        raise RunnerError(f"job {job.id} is {job.status}; only a running job can finish")
    lines = list(log) if log is not None else list(outcome.log or ())
    footer = _FOOTERS[status]
    if timed_out:
        footer = f"ERROR: Job failed: execution took longer than {go_duration(limit)} seconds"
    job.trace = [*(job.trace or _header(job)), *lines, footer]
    job.coverage = coverage if coverage is not None else outcome.coverage
    if job.coverage is None:
        job.coverage = _coverage(job, lines)
    if status == "success":
        fire_job(store, job, "success", now, refresh=False)
    elif status == "failed":
        reason = failure_reason or outcome.failure_reason or DEFAULT_FAILURE_REASON
        fire_job(store, job, "drop", now, refresh=False, failure_reason=reason)
    else:
        fire_job(store, job, "cancel", now, refresh=False)
    produced = outcome.artifacts if artifacts is None else artifacts
    collect_artifacts(store, job, default_artifacts(job) if produced is None else produced, now)
    if job.status == "failed" and _retries_left(job):
        clone(store, job, job.user_id, now)
    if refresh:
        refresh_pipeline(store, pipelines(store).rows[job.pipeline_id], now)
    return job


def go_duration(seconds: float) -> str:
    """A duration the way the runner prints it: ``1h0m0s``, ``1m30s``, ``45s``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes}m{secs}s"
    if minutes:
        return f"{minutes}m{secs}s"
    return f"{secs}s"


def _retries_left(job: Job) -> bool:
    """Whether ``retry:`` asks for another attempt after this failure."""
    spec = job.retry
    if spec is None or job.attempt > spec.max:
        return False
    return "always" in spec.when or (job.failure_reason or "") in spec.when


def advance(store: Store, until: dt.datetime) -> int:
    """Process every due ``timed`` event up to ``until``, in time order; returns how many."""
    count = 0
    while True:
        job = next_due(store)
        if job is None or job.due_at is None or job.due_at > until:
            return count
        when = job.due_at
        count += 1
        if job.status == "scheduled":
            # a delayed job of a resource group asks for the group when its time comes
            fire_job(store, job, "request_resource" if job.resource_group else "enqueue", when)
        elif job.status == "pending":
            if runner_for(store, job) is None:  # stuck until a runner can take it
                jobs(store).update(job, due_at=None)
            else:
                start(store, job, when)
        elif job.status == "running":
            finish(store, job, when)
        elif job.status == "canceling":  # the runner acknowledges the cancel
            fire_job(store, job, "cancel", when)
            jobs(store).update(job, due_at=None)
        else:
            jobs(store).update(job, due_at=None)


def _drain(store: Store, now: dt.datetime, wanted: Callable[[Job], bool]) -> None:
    while True:
        waiting = [
            job
            for status in ("pending", "scheduled", "running")
            for job in active_builds(store, status)
            if wanted(job) and startable(store, job)
        ]
        if not waiting:
            return
        touched: dict[int, Pipeline] = {}
        for job in waiting:
            if job.status in ACTIVE_BUILD and not job.retried:
                finish(store, job, now, refresh=False)
                touched[job.pipeline_id] = pipelines(store).rows[job.pipeline_id]
        for pipeline in touched.values():
            refresh_pipeline(store, pipeline, now)


def drain(store: Store, now: dt.datetime) -> None:
    """Finish, at ``now``, every waiting build of the projects in ``instant`` mode."""
    if not any_instant(store):
        return
    _drain(store, now, lambda job: mode_of(store, job.project_id)[0] == "instant")


def settle(store: Store, now: dt.datetime) -> None:
    """After any change: process what is due now (timed) and finish what instant projects
    left waiting, so that nothing overdue is ever visible."""
    for _ in range(1000):
        advance(store, now)
        drain(store, now)
        job = next_due(store)
        if job is None or job.due_at is None or job.due_at > now:
            return


def run_pipeline(store: Store, pipeline: Pipeline, now: dt.datetime) -> Pipeline:
    """Finish, at ``now``, every waiting build of a pipeline and its descendants.

    Manual jobs stay manual: they need a play.
    """
    ids = {p.id for p in pipeline_tree(store, pipeline)}

    def wanted(job: Job) -> bool:
        if job.pipeline_id in ids:
            return True
        current = pipelines(store).get(job.pipeline_id)
        while current is not None and current.parent_id is not None:
            if current.parent_id in ids:
                ids.add(job.pipeline_id)
                return True
            current = pipelines(store).get(current.parent_id)
        return False

    _drain(store, now, wanted)
    return pipeline
