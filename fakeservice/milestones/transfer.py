"""Project milestones as an export relation (``milestones``): title, description, dates
and state (closed through the milestone machine); an import creates each milestone or,
when an issue or merge request item already made it by title, gives it the exported
fields."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.store import Store
from fakeservice.labels.models import PROJECT
from fakeservice.milestones import models
from fakeservice.projects.models import Project
from fakeservice.transfer.records import decode, encode
from fakeservice.transfer.relations import register_relation

SKIP = ("id", "iid", "owner_kind", "owner_id")


def _dump(store: Store, project: Project) -> list[dict[str, Any]]:
    return [encode(m, SKIP) for m in models.of_owners(store, [(PROJECT, project.id)])]


def _load(store: Store, project: Project, item: dict[str, Any], now: dt.datetime) -> None:
    fields = decode(models.Milestone, item, SKIP)
    owner = (PROJECT, project.id)
    title = str(fields.get("title", ""))
    found = models.by_title(store, [owner], title)
    record = found[0] if found else models.create(store, owner, now, title=title)
    changes: dict[str, object] = {
        name: fields[name] for name in ("description", "start_date", "due_date") if name in fields
    }
    if fields.get("state") == "closed":
        changes["state_event"] = "close"
    models.update(store, record, now, changes)
    times = {name: fields[name] for name in ("created_at", "updated_at") if name in fields}
    models.milestones(store).update(record, **times)


def register() -> None:
    register_relation("milestones", _dump, _load)
