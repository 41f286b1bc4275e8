"""Running schedules: ``run`` makes a schedule's pipeline (``source: schedule``, by its
owner, with its variables); :func:`fire_due` runs every active schedule whose
``next_run_at`` the service clock has reached, once however many runs it missed, and
moves ``next_run_at`` past now. :func:`extend` (the area's service extension) fires them
when the manual clock moves and before every request (a real clock).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from fakeservice.ci.pipelines.creation import create_for_ref
from fakeservice.ci.runner.simulation import settle
from fakeservice.ci.schedules import models as model
from fakeservice.ci.schedules.models import Schedule
from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.projects.models import Project, projects

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


def run(store: Store, project: Project, schedule: Schedule, now: dt.datetime) -> None:
    """Create the schedule's pipeline now and remember it as the schedule's."""
    pipeline = create_for_ref(
        store,
        project,
        schedule.ref,
        source="schedule",
        user_id=schedule.owner_id,
        variables=model.pipeline_variables(store, schedule),
        now=now,
    )
    model.schedules(store).update(schedule, pipeline_ids=(*schedule.pipeline_ids, pipeline.id))


def _due(store: Store, now: dt.datetime) -> list[Schedule]:
    table = model.schedules(store)
    out: list[Schedule] = []
    for entry in table.sorted["due"].part(True):
        if entry[0] > now:
            break
        out.append(table.rows[entry[-1]])
    return out


def fire_due(store: Store, now: dt.datetime) -> int:
    """Run the schedules that are due at ``now``; answer how many ran."""
    due = _due(store, now)
    for schedule in due:
        project = projects(store).get(schedule.project_id)
        if project is not None:
            try:
                run(store, project, schedule, now)
            except ApiError:
                pass  # the ref or its CI file is gone: the real service skips this run
        model.schedules(store).update(schedule, next_run_at=model.next_run_at(schedule, now))
    if due:
        settle(store, now)
    return len(due)


def extend(service: FakeService) -> None:
    """Fire due schedules when the manual clock moves and before every request."""

    def catch_up(*_: object) -> None:
        with service.store.lock:
            fire_due(service.store, service.clock.now())

    service.clock.on_change(catch_up)
    service.add_hooks(catch_up=catch_up)
