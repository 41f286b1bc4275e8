"""Project labels as an export relation (``labels``): name, colour, description,
priority and creation time; an import creates each label or, when an issue or merge
request item already made it by name, gives it the exported colour and description."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.store import Store
from fakeservice.labels import models
from fakeservice.projects.models import Project
from fakeservice.transfer.records import decode, encode
from fakeservice.transfer.relations import register_relation

SKIP = ("id", "owner_kind", "owner_id")


def _dump(store: Store, project: Project) -> list[dict[str, Any]]:
    return [
        encode(label, SKIP) for label in models.of_owners(store, [(models.PROJECT, project.id)])
    ]


def _load(store: Store, project: Project, item: dict[str, Any], now: dt.datetime) -> None:
    fields = decode(models.Label, item, SKIP)
    owner = (models.PROJECT, project.id)
    label = models.find_by_name(store, [owner], str(fields.get("name", "")))
    if label is None:
        label = models.create(store, owner, now, name=fields.get("name", ""), color=None)
    models.update(
        store,
        label,
        color=fields.get("color"),
        description=fields.get("description"),
        priority=fields.get("priority"),
        fields=("color", "description", "priority"),
    )
    models.labels(store).update(label, created_at=fields.get("created_at") or now)


def register() -> None:
    register_relation("labels", _dump, _load)
