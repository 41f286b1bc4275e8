"""Broadcast messages in scenarios: the top-level ``broadcast_messages`` key, each entry
checked as ``POST /broadcast_messages`` checks it.

.. code-block:: yaml

    broadcast_messages:
      - message: Maintenance tonight
        starts_at: 2026-01-01T08:00:00Z      # default: the clock's start
        ends_at: 2026-01-01T20:00:00Z        # default: an hour later
        broadcast_type: notification
        target_access_levels: [30, 40]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.broadcasts import models
from fakeservice.broadcasts.routes import fields
from fakeservice.core.errors import ApiError
from fakeservice.scenarios.schema import (
    BOOL,
    INT,
    STR,
    TIME,
    Choice,
    Field,
    ListOf,
    Record,
)
from fakeservice.web.params import validate

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

BROADCAST = Record(
    "broadcast_message",
    {
        "message": Field(STR, "the message (Markdown)", required=True),
        "starts_at": Field(TIME, "when it starts (default: the clock's time)"),
        "ends_at": Field(TIME, "when it ends (default: an hour after it starts)"),
        "color": Field(STR, "background colour (default #E75E40)"),
        "font": Field(STR, "foreground colour (default #FFFFFF)"),
        "target_access_levels": Field(
            ListOf(INT), "the roles that see it: 10, 15, 20, 30, 40, 50 (none: everyone)"
        ),
        "target_path": Field(STR, "paths it shows on (`*` wildcards)"),
        "broadcast_type": Field(Choice(models.BROADCAST_TYPES), "banner (default) or notification"),
        "dismissable": Field(BOOL, "whether users can dismiss it"),
        "theme": Field(Choice(models.THEMES), "the banner's theme (default indigo)"),
    },
    "An instance-wide broadcast message.",
)


def load_broadcasts(service: FakeService, data: Mapping[str, Any]) -> None:
    params = fields(create=True)
    now = service.clock.now()
    for index, item in enumerate(data.get("broadcast_messages") or []):
        raw = {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in dict(item).items()}
        try:
            models.create(service.store, now, validate(params, raw))
        except ApiError as error:
            error.scenario_where = f"broadcast_messages[{index}]"  # type: ignore[attr-defined]
            raise


def register(found: Sections) -> None:
    """Declare the top-level ``broadcast_messages`` key."""
    found.register_section(
        "broadcast_messages",
        load_broadcasts,
        schema=ListOf(BROADCAST),
        doc="instance broadcast messages",
    )
