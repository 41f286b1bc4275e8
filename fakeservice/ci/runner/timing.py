"""When the simulated runner acts next on a job (``due_at``), in ``timed`` mode only.

A pending job is picked up ``pickup_seconds`` after it was queued, a running job finishes
``duration`` seconds (from its outcome, at most its timeout) after it started, and a
delayed (``scheduled``) job is queued ``start_in`` seconds after it was scheduled. Jobs in
other states, bridges, external commit statuses, jobs of projects in another mode and
pending jobs no runner can run (stuck) have no due time. Due times are kept in the ``runner_due`` index so the next event is
found in O(log n).
"""

from __future__ import annotations

import datetime as dt

from fakeservice.ci.models import Job, jobs
from fakeservice.ci.runner.assignment import can_start, timeout_of
from fakeservice.ci.runner.outcomes import mode_of, outcome_for
from fakeservice.core.store import Store


def due_time(store: Store, job: Job, now: dt.datetime) -> dt.datetime | None:
    """When the runner should next act on ``job`` (never earlier than ``now``)."""
    if not job.is_build or job.retried:
        return None
    mode, pickup = mode_of(store, job.project_id)
    if mode != "timed":
        return None
    if job.status == "pending":
        if not can_start(store, job):
            return None  # stuck: no runner can run it (see Runner.runners_changed)
        base = (job.queued_at or now) + dt.timedelta(seconds=pickup)
    elif job.status == "running":
        duration = min(outcome_for(store, job).duration, timeout_of(store, job))
        base = (job.started_at or now) + dt.timedelta(seconds=duration)
    elif job.status == "scheduled":
        base = now + dt.timedelta(seconds=job.start_in or 0)
        if job.due_at is not None:
            return job.due_at
    else:
        return None
    return max(base, now)


def schedule(store: Store, job: Job, now: dt.datetime) -> None:
    """Recompute ``job.due_at`` after a change (and keep the index in step)."""
    due = due_time(store, job, now)
    if due != job.due_at:
        jobs(store).update(job, due_at=due)


def next_due(store: Store) -> Job | None:
    """The job with the earliest due time (ties by id), or None."""
    table = jobs(store)
    part = table.sorted["runner_due"].part("due")
    if not part:
        return None
    return table.rows[part[0][-1]]
