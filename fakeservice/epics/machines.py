"""The epic machine (seed 001 §3), as data: ``close`` opened → closed (``closed_at`` and
``closed_by`` set), ``reopen`` closed → opened (both cleared)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.machine import Machine

STATE_EVENTS = ("close", "reopen")


def _closed(epic: Any, _old: str, _event: str, context: dict[str, Any]) -> None:
    epic.closed_at = context["now"]
    epic.closed_by_id = context.get("user_id")


def _reopened(epic: Any, _old: str, _event: str, _context: dict[str, Any]) -> None:
    epic.closed_at = None
    epic.closed_by_id = None


EPIC_MACHINE = Machine(
    "epic",
    ("opened", "closed"),
    [("close", "opened", "closed"), ("reopen", "closed", "opened")],
    attribute="state",
    effects={"closed": [_closed], "opened": [_reopened]},
)
