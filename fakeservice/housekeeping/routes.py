"""``POST /projects/:id/housekeeping`` (``task``: ``eager`` or ``prune``; Maintainer).

The fake does no repository work (its repositories need none): it answers as the service
does, 201 with the id of the job it would have queued, and keeps the lease the service
takes, so a second request within the hour is 409 ``Somebody already triggered
housekeeping for this resource within the past 60 minutes``. Each accepted request is
recorded (``housekeeping_runs(store, project_id)``: time, task, user) for tests to see.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.errors import Conflict
from fakeservice.core.store import Store
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.web.context import Context
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("housekeeping")

LEASE = dt.timedelta(minutes=60)
LEASE_TAKEN = "Somebody already triggered housekeeping for this resource within the past 60 minutes"
_KEY = "housekeeping"


def housekeeping_runs(store: Store, project_id: int) -> list[dict[str, Any]]:
    """The accepted housekeeping requests of a project, oldest first."""
    return list(store.extras.get(_KEY, {}).get(project_id, ()))


@api.post(
    "/projects/:id/housekeeping",
    params=(
        Param("id", STR, required=True),
        Param("task", STR, default="eager", values=("eager", "prune")),
    ),
    auth=REQUIRED,
)
def housekeeping(ctx: Context) -> Any:
    """Start the housekeeping task of a project's repository (201)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    runs = ctx.store.extras.setdefault(_KEY, {})
    done = runs.get(project.id, [])
    if done and ctx.now - done[-1]["at"] < LEASE:
        raise Conflict(LEASE_TAKEN)
    job = f"{ctx.store.next_id('housekeeping_jobs'):024x}"
    entry = {"at": ctx.now, "task": ctx.params["task"], "user_id": ctx.user.id, "job_id": job}
    runs[project.id] = [*done, entry]
    return job


def forget_project(store: Store, project: Any) -> None:
    """``PROJECT_DELETED``: its housekeeping record goes with it."""
    store.extras.get(_KEY, {}).pop(project.id, None)
