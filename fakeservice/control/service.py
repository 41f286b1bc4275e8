"""Per-service control helpers attached at construction (journal, faults, rate limits)."""

from __future__ import annotations

from typing import Any


def extend(service: Any) -> None:
    """Attach the control plane's helpers to ``service``."""
