"""Which runner picks a build up, asked through events so that CI works with or without
the runners area (:mod:`fakeservice.runners`).

* :data:`RUNNER_FOR_JOB` ``(store, job) -> int | None``: the id of the runner that would
  pick ``job`` up now, None when no runner can (the job stays pending: *stuck*);
* :data:`RUNNER_PICKED` ``(store, job, runner_id, now)``: a runner picked a job up (it
  contacted the service);
* :data:`RUNNER_VIEW` ``(store, runner_id, now) -> dict | None``: the ``runner`` object a
  job shows;
* :data:`RUNNER_TIMEOUT` ``(store, runner_id) -> int | None``: the runner's
  ``maximum_timeout``, which caps the timeout of the jobs it runs.

Without listeners (a service made without the runners area), the built-in instance
runner :data:`BUILTIN_RUNNER_ID` picks every build up.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.models import Job
from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.projects.models import projects

RUNNER_FOR_JOB = "ci.runner_for_job"
RUNNER_PICKED = "ci.runner_picked"
RUNNER_VIEW = "ci.runner_view"
RUNNER_TIMEOUT = "ci.runner_timeout"
BUILTIN_RUNNER_ID = 1
BUILTIN_RUNNER: dict[str, Any] = {
    "id": BUILTIN_RUNNER_ID,
    "description": "fakeservice runner",
    "ip_address": None,
    "active": True,
    "paused": False,
    "is_shared": True,
    "runner_type": "instance_type",
    "name": "fakeservice-runner",
    "online": True,
    "status": "online",
}


def runner_for(store: Store, job: Job) -> int | None:
    """The runner that would pick ``job`` up now, or None (stuck)."""
    found = listeners(store, RUNNER_FOR_JOB)
    if not found:
        return BUILTIN_RUNNER_ID
    return found[0](store, job)


def can_start(store: Store, job: Job) -> bool:
    """Whether some runner can pick a pending (or delayed) build up now."""
    return runner_for(store, job) is not None


def picked(store: Store, job: Job, runner_id: int, now: dt.datetime) -> None:
    for listener in listeners(store, RUNNER_PICKED):
        listener(store, job, runner_id, now)


def runner_view(store: Store, runner_id: int, now: dt.datetime) -> dict[str, Any] | None:
    """The ``runner`` object of a job run by ``runner_id`` (None once the runner is gone)."""
    found = listeners(store, RUNNER_VIEW)
    if not found:
        return dict(BUILTIN_RUNNER)
    return found[0](store, runner_id, now)


def timeout_of(store: Store, job: Job) -> int:
    """The job's ``timeout:``, else its project's job timeout (seconds), at most the
    ``maximum_timeout`` of the runner that runs it."""
    limit = job.timeout or projects(store).rows[job.project_id].build_timeout
    if job.runner_id is not None:
        for listener in listeners(store, RUNNER_TIMEOUT):
            cap = listener(store, job.runner_id)
            if cap is not None:
                limit = min(limit, cap)
    return limit
