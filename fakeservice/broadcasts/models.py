"""Broadcast message records and their operations.

A message runs from ``starts_at`` (default: now on the service clock) to ``ends_at``
(default: an hour later); it is ``active`` while the clock is within that span. Colours
default to ``#E75E40`` on ``#FFFFFF``, the theme to ``indigo`` and the type to
``banner``. Model validation words its messages as the service does (``can't be blank``,
``must be a valid color code``) and runs on the whole record before anything is stored.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table

TARGET_ACCESS_LEVELS = (10, 15, 20, 30, 40, 50)
BROADCAST_TYPES = ("banner", "notification")
THEMES = (
    "indigo",
    "light-indigo",
    "blue",
    "light-blue",
    "green",
    "light-green",
    "red",
    "light-red",
    "dark",
    "light",
)
_COLOR = re.compile(r"^#(?:[0-9A-Fa-f]{3}){1,2}$")
EDITABLE = (
    "message",
    "starts_at",
    "ends_at",
    "color",
    "font",
    "target_access_levels",
    "target_path",
    "broadcast_type",
    "dismissable",
    "theme",
)


@attrs.define(slots=True)
class BroadcastMessage:
    id: int
    message: str
    starts_at: dt.datetime
    ends_at: dt.datetime
    created_at: dt.datetime
    updated_at: dt.datetime
    color: str | None = "#E75E40"
    font: str | None = "#FFFFFF"
    target_access_levels: list[int] = attrs.field(factory=list)
    target_path: str | None = None
    broadcast_type: str = "banner"
    dismissable: bool = False
    theme: str = "indigo"

    def active(self, now: dt.datetime) -> bool:
        return self.starts_at <= now <= self.ends_at


def broadcast_messages(store: Store) -> Table[BroadcastMessage]:
    return store.tables["broadcast_messages"]


def install(store: Store) -> None:
    store.table("broadcast_messages")


def errors_of(fields: Mapping[str, Any]) -> dict[str, list[str]]:
    """Model validation of a message's (merged) fields."""
    errors: dict[str, list[str]] = {}
    if not str(fields.get("message") or "").strip():
        errors["message"] = ["can't be blank"]
    for name in ("color", "font"):
        value = fields.get(name)
        if value and not _COLOR.match(str(value)):
            errors[name] = ["must be a valid color code"]
    return errors


def create(store: Store, now: dt.datetime, fields: Mapping[str, Any]) -> BroadcastMessage:
    """A new message from declared ``fields`` (times default to now and an hour later)."""
    given = {k: v for k, v in fields.items() if k in EDITABLE and v is not None}
    given.setdefault("starts_at", now)
    given.setdefault("ends_at", now + dt.timedelta(hours=1))
    errors = errors_of(given)
    if errors:
        raise ValidationFailed(errors)
    record = BroadcastMessage(
        id=store.next_id("broadcast_messages"), created_at=now, updated_at=now, **given
    )
    return broadcast_messages(store).insert(record)


def update(
    store: Store, record: BroadcastMessage, now: dt.datetime, fields: Mapping[str, Any]
) -> BroadcastMessage:
    changes = {k: v for k, v in fields.items() if k in EDITABLE}
    merged = {**attrs.asdict(record), **changes}
    errors = errors_of(merged)
    if errors:
        raise ValidationFailed(errors)
    return broadcast_messages(store).update(record, updated_at=now, **changes)
