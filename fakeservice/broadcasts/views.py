"""JSON of a broadcast message, in the service's field order, ``active`` from the clock."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.broadcasts.models import BroadcastMessage
from fakeservice.core.clock import iso


def broadcast_view(record: BroadcastMessage, now: dt.datetime) -> dict[str, Any]:
    return {
        "id": record.id,
        "message": record.message,
        "starts_at": iso(record.starts_at),
        "ends_at": iso(record.ends_at),
        "color": record.color,
        "font": record.font,
        "target_access_levels": list(record.target_access_levels),
        "target_path": record.target_path,
        "broadcast_type": record.broadcast_type,
        "theme": record.theme,
        "dismissable": record.dismissable,
        "active": record.active(now),
    }
