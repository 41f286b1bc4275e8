"""Pipeline schedules as an export relation (``ci_pipeline_schedules``): description,
ref, cron, time zone, active flag, times and variables (key, value, type).

An import makes each schedule inactive and owned by the importing user (the imported
project's creator), as the real service does: nothing runs on the new project until
someone turns its schedules on. An item is checked whole (fields, cron, time zone,
variables with distinct keys) before anything is stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.schedules import models
from fakeservice.core.store import Store
from fakeservice.projects.models import Project
from fakeservice.transfer.records import decode, encode
from fakeservice.transfer.relations import register_relation

NAME = "ci_pipeline_schedules"
SKIP = ("id", "project_id", "owner_id", "next_run_at", "pipeline_ids")
VARIABLE_SKIP = ("id", "schedule_id")
VARIABLE_TYPES = ("env_var", "file")


def _dump(store: Store, project: Project) -> list[dict[str, Any]]:
    out = []
    for schedule in models.of_project(store, project.id):
        item = encode(schedule, SKIP)
        item["variables"] = [
            encode(variable, VARIABLE_SKIP) for variable in models.variables_of(store, schedule)
        ]
        out.append(item)
    return out


def _variables(items: Any) -> list[dict[str, Any]]:
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise TypeError("variables must be a list of objects")
    found = [decode(models.ScheduleVariable, item, VARIABLE_SKIP) for item in items]
    for fields in found:
        if "key" not in fields or "value" not in fields:
            raise ValueError("a variable needs a key and a value")
        if fields.get("variable_type", "env_var") not in VARIABLE_TYPES:
            raise ValueError(f"variable_type {fields['variable_type']} is not one of env_var, file")
    keys = [fields["key"] for fields in found]
    if len(set(keys)) != len(keys):
        raise ValueError("variable keys must be distinct")
    return found


def _load(store: Store, project: Project, item: dict[str, Any], now: dt.datetime) -> None:
    fields = decode(models.Schedule, item, SKIP)
    variables = _variables(item.get("variables") or [])
    if project.creator_id is None:
        raise ValueError("the imported project has no owner for its schedules")
    created = fields.pop("created_at", None) or now
    updated = fields.pop("updated_at", None) or now
    fields["active"] = False
    schedule = models.create(store, project.id, project.creator_id, now, **fields)
    models.schedules(store).update(schedule, created_at=created, updated_at=updated)
    for variable in variables:
        models.add_variable(store, schedule, **variable)


def register() -> None:
    """Carry pipeline schedules (with their variables) in exports and imports."""
    register_relation(NAME, _dump, _load)
