"""The instance record: plan (tier), self-managed or not, repository storages, the
application settings and how background work (storage moves, exports,
imports) runs.

It lives in ``store.extras["instance"]`` so that snapshots carry it. Without a scenario
an instance is a self-managed ``ultimate`` one with a single storage named ``default``;
the built-in default scenario adds ``storage2``.
"""

from __future__ import annotations

from typing import Any

import attrs

from fakeservice.core.errors import Forbidden
from fakeservice.core.store import Store

PLANS: tuple[str, ...] = ("free", "premium", "ultimate")
PAID_PLANS = frozenset({"premium", "ultimate"})
DEFAULT_STORAGE = "default"
BACKGROUND_MODES: tuple[str, ...] = ("instant", "timed", "manual")
DEFAULT_STEP_SECONDS = 10.0
_KEY = "instance"


@attrs.define(slots=True)
class Instance:
    plan: str = "ultimate"
    self_managed: bool = True
    storages: tuple[str, ...] = (DEFAULT_STORAGE,)
    settings: dict[str, Any] = attrs.field(factory=dict)
    background_mode: str = "instant"
    step_seconds: float = DEFAULT_STEP_SECONDS
    geo_node_name: str = "fakeservice"


def instance(store: Store) -> Instance:
    """The store's instance record (created with the defaults on first use)."""
    found = store.extras.get(_KEY)
    if found is None:
        found = store.extras[_KEY] = Instance()
    return found


def has_paid_plan(store: Store) -> bool:
    return instance(store).plan in PAID_PLANS


def require_paid_plan(store: Store) -> None:
    """403 ``403 Forbidden`` when the instance's plan lacks a paid-tier feature."""
    if not has_paid_plan(store):
        raise Forbidden()


def require_self_managed_paid_plan(store: Store) -> None:
    """403 ``403 Forbidden`` unless the instance is self-managed on a paid plan (Geo)."""
    require_paid_plan(store)
    if not instance(store).self_managed:
        raise Forbidden()


def storage_names(store: Store) -> tuple[str, ...]:
    return instance(store).storages
