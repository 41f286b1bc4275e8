"""Pipeline schedule records, their variables, validation and ``next_run_at``.

A schedule belongs to a project and an owner (the user who created it or took it over);
``next_run_at`` is the next minute its cron matches after the service clock, in its time
zone. ``play`` runs it now: a pipeline with ``source: schedule`` for its ref, seeing its
variables, made by its owner.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import attrs

from fakeservice.ci.schedules import cron
from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Selection, Store, Table


@attrs.define(slots=True)
class Schedule:
    id: int
    project_id: int
    owner_id: int
    description: str
    ref: str
    cron: str
    cron_timezone: str
    active: bool
    created_at: dt.datetime
    updated_at: dt.datetime
    next_run_at: dt.datetime | None = None
    pipeline_ids: tuple[int, ...] = ()


@attrs.define(slots=True)
class ScheduleVariable:
    id: int
    schedule_id: int
    key: str
    value: str
    variable_type: str = "env_var"


def schedules(store: Store) -> Table[Schedule]:
    return store.tables["ci_pipeline_schedules"]


def schedule_variables(store: Store) -> Table[ScheduleVariable]:
    return store.tables["ci_pipeline_schedule_variables"]


def install(store: Store) -> None:
    table = store.table("ci_pipeline_schedules")
    table.add_sorted("project", lambda s: s.project_id, lambda s: (s.id,))
    table.add_sorted("project_active", lambda s: (s.project_id, s.active), lambda s: (s.id,))
    table.add_sorted("due", lambda s: s.next_run_at is not None, lambda s: (s.next_run_at,))
    variables = store.table("ci_pipeline_schedule_variables")
    variables.add_unique("schedule_key", lambda v: (v.schedule_id, v.key))
    variables.add_sorted("schedule", lambda v: v.schedule_id, lambda v: (v.id,))


def of_project(store: Store, project_id: int, active: bool | None = None) -> Selection[Schedule]:
    if active is None:
        return schedules(store).select("project", [project_id])
    return schedules(store).select("project_active", [(project_id, active)])


def variables_of(store: Store, schedule: Schedule) -> Selection[ScheduleVariable]:
    return schedule_variables(store).select("schedule", [schedule.id])


def check(fields: Mapping[str, Any]) -> None:
    """The model's validation of a schedule's merged fields (400 with the messages)."""
    errors: dict[str, list[str]] = {}
    for name in ("description", "ref", "cron"):
        if not str(fields.get(name) or "").strip():
            errors[name] = ["can't be blank"]
    if "cron" not in errors:
        try:
            cron.parse(fields["cron"])
        except cron.CronError:
            errors["cron"] = [" is invalid syntax"]
    if not cron.valid_timezone(str(fields.get("cron_timezone") or "")):
        errors["cron_timezone"] = [" is invalid syntax"]
    if errors:
        raise ValidationFailed(errors)


def next_run_at(schedule: Schedule, now: dt.datetime) -> dt.datetime | None:
    if not schedule.active:
        return None
    return cron.next_run(cron.parse(schedule.cron), now, schedule.cron_timezone)


def create(
    store: Store, project_id: int, owner_id: int, now: dt.datetime, **fields: Any
) -> Schedule:
    merged = {"cron_timezone": "UTC", "active": True, **fields}
    check(merged)
    record = Schedule(
        id=store.next_id("ci_pipeline_schedules"),
        project_id=project_id,
        owner_id=owner_id,
        created_at=now,
        updated_at=now,
        **merged,
    )
    record.next_run_at = next_run_at(record, now)
    return schedules(store).insert(record)


def change(store: Store, record: Schedule, now: dt.datetime, **fields: Any) -> Schedule:
    merged = {**attrs.asdict(record), **fields}
    check(merged)
    probe = attrs.evolve(record, **fields)
    return schedules(store).update(
        record, **fields, updated_at=now, next_run_at=next_run_at(probe, now)
    )


def delete(store: Store, record: Schedule) -> None:
    for variable in list(variables_of(store, record)):
        schedule_variables(store).delete(variable)
    schedules(store).delete(record)


def add_variable(store: Store, schedule: Schedule, **fields: Any) -> ScheduleVariable:
    if schedule_variables(store).by("schedule_key", (schedule.id, fields["key"])):
        raise ValidationFailed({"key": ["has already been taken"]})
    record = ScheduleVariable(
        id=store.next_id("ci_pipeline_schedule_variables"), schedule_id=schedule.id, **fields
    )
    return schedule_variables(store).insert(record)


def pipeline_variables(store: Store, schedule: Schedule) -> list[dict[str, str]]:
    return [
        {"key": v.key, "value": v.value, "variable_type": v.variable_type}
        for v in variables_of(store, schedule)
    ]


def forget_project(store: Store, project: Any) -> None:
    """A deleted project takes its schedules and their variables."""
    for schedule in list(of_project(store, project.id)):
        delete(store, schedule)
