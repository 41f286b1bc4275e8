"""JSON of a license, in the service's field order: the list shows each license, the
current one adds ``active_users`` (the instance's active users)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.core.store import Store
from fakeservice.instance.license import License


def active_users(store: Store) -> int:
    table = store.tables.get("users")
    return len(table.sorted["state"].part("active")) if table is not None else 0


def license_view(
    store: Store, record: License, now: dt.datetime, *, with_active: bool = False
) -> dict[str, Any]:
    users = active_users(store)
    out: dict[str, Any] = {
        "id": record.id,
        "plan": record.plan,
        "created_at": iso(record.created_at),
        "starts_at": iso_date(record.starts_at),
        "expires_at": iso_date(record.expires_at),
        "historical_max": users,
        "maximum_user_count": users,
        "expired": record.expires_at is not None and record.expires_at < now.date(),
        "overage": max(0, users - record.user_limit) if record.user_limit else 0,
        "user_limit": record.user_limit,
        "licensee": dict(record.licensee),
        "add_ons": dict(record.add_ons),
    }
    if with_active:
        out["active_users"] = users
    return out
