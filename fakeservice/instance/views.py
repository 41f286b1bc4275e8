"""The JSON of the application settings."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.instance.models import instance
from fakeservice.instance.settings import current

# Areas add read-only settings they keep (e.g. the runners area's
# ``runners_registration_token``) by listening to this event: ``extension(store, out)``.
SETTINGS_VIEW = "instance.settings_view"


def settings_view(store: Store, created_at: dt.datetime) -> dict[str, Any]:
    """``id`` 1, every kept setting, then ``created_at`` (the clock's start, when the
    instance came up) and ``updated_at`` (the last update), then the areas' additions."""
    updated = instance(store).settings.get("updated_at") or created_at
    out = {"id": 1, **current(store), "created_at": iso(created_at), "updated_at": iso(updated)}
    for extension in listeners(store, SETTINGS_VIEW):
        extension(store, out)
    return out
