"""The instance's licenses (``/license``, ``/licenses``).

Until a license is added or deleted, the instance has the license its scenario implies:
id 1 with the scenario's plan (none on a ``free`` plan), issued when the clock started,
valid for a year. The first write puts that license in the ``licenses`` table; from then
on the table holds them all, the newest is the current one, and the instance's plan
follows it (``free`` when none is left), as a real instance's features follow its
license.

A license key the fake accepts is the Base64 of a JSON object (see :func:`make_key`):
``plan`` (premium or ultimate), optional ``licensee`` ({Name, Email, Company}),
``starts_at`` and ``expires_at`` (``YYYY-MM-DD``), ``user_limit`` and ``add_ons``.
Anything else is refused as the service refuses a key it cannot decrypt.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

import attrs

from fakeservice.core.errors import BadRequest
from fakeservice.core.store import Store, Table
from fakeservice.instance.models import PAID_PLANS, instance

INVALID = "The license key is invalid. Make sure it is exactly as you received it from GitLab Inc."
EXPIRED = "This license has already expired."
DEFAULT_LICENSEE = {"Name": "Fake Service", "Email": "admin@example.com", "Company": "fakeservice"}
_MATERIALIZED = "licenses_materialized"


@attrs.define(slots=True)
class License:
    id: int
    plan: str
    created_at: dt.datetime
    starts_at: dt.date
    expires_at: dt.date | None
    licensee: dict[str, str] = attrs.field(factory=lambda: dict(DEFAULT_LICENSEE))
    user_limit: int = 0
    add_ons: dict[str, int] = attrs.field(factory=dict)


def licenses(store: Store) -> Table[License]:
    return store.tables["licenses"]


def install(store: Store) -> None:
    store.table("licenses")


def make_key(plan: str, **fields: Any) -> str:
    """A license key the fake accepts (``fields``: licensee, starts_at, expires_at,
    user_limit, add_ons)."""
    return base64.b64encode(json.dumps({"plan": plan, **fields}).encode()).decode()


def _scenario_license(store: Store, started: dt.datetime) -> License | None:
    plan = instance(store).plan
    if plan not in PAID_PLANS:
        return None
    day = started.date()
    return License(
        id=1,
        plan=plan,
        created_at=started,
        starts_at=day,
        expires_at=day.replace(year=day.year + 1),
    )


def all_licenses(store: Store, started: dt.datetime) -> list[License]:
    """Every license, oldest first."""
    if not store.extras.get(_MATERIALIZED):
        found = _scenario_license(store, started)
        return [found] if found is not None else []
    return list(licenses(store))


def current(store: Store, started: dt.datetime) -> License | None:
    found = all_licenses(store, started)
    return found[-1] if found else None


def _materialize(store: Store, started: dt.datetime) -> None:
    if store.extras.get(_MATERIALIZED):
        return
    found = _scenario_license(store, started)
    store.extras[_MATERIALIZED] = True
    if found is not None:
        store.next_id("licenses")
        licenses(store).insert(found)


def _follow_plan(store: Store, started: dt.datetime) -> None:
    latest = current(store, started)
    instance(store).plan = latest.plan if latest is not None else "free"


def _date(value: Any) -> dt.date | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(value)
    return dt.date.fromisoformat(value)


def parse_key(key: str | None, now: dt.datetime) -> dict[str, Any]:
    """The fields of a license key; 400 with the service's message when it is not one."""
    try:
        if not isinstance(key, str):
            raise ValueError(key)
        data = json.loads(base64.b64decode(key.strip(), validate=True))
        if not isinstance(data, Mapping) or data.get("plan") not in PAID_PLANS:
            raise ValueError(key)
        licensee = data.get("licensee", DEFAULT_LICENSEE)
        add_ons = data.get("add_ons", {})
        limit = data.get("user_limit", 0)
        if not isinstance(licensee, Mapping) or not isinstance(add_ons, Mapping):
            raise ValueError(key)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise ValueError(key)
        fields = {
            "plan": data["plan"],
            "starts_at": _date(data.get("starts_at")) or now.date(),
            "expires_at": _date(data.get("expires_at")),
            "licensee": {str(k): str(v) for k, v in licensee.items()},
            "user_limit": limit,
            "add_ons": {str(k): int(v) for k, v in add_ons.items()},
        }
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise BadRequest(INVALID, raw=True) from None
    if fields["expires_at"] is not None and fields["expires_at"] < now.date():
        raise BadRequest(EXPIRED, raw=True)
    return fields


def add(store: Store, key: str, now: dt.datetime, started: dt.datetime) -> License:
    """Add the license of ``key``: it becomes the current one and sets the plan."""
    fields = parse_key(key, now)
    _materialize(store, started)
    record = licenses(store).insert(License(id=store.next_id("licenses"), created_at=now, **fields))
    _follow_plan(store, started)
    return record


def delete(store: Store, license_id: int, started: dt.datetime) -> bool:
    """Delete a license (False when there is none with that id); the plan follows."""
    if not any(found.id == license_id for found in all_licenses(store, started)):
        return False
    _materialize(store, started)
    licenses(store).delete(licenses(store).rows[license_id])
    _follow_plan(store, started)
    return True
