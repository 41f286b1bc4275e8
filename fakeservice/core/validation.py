"""Model validation messages shared by every area (names, lengths), worded as the service
words them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_LENGTH = 255


def too_long(value: Any, maximum: int = MAX_LENGTH) -> list[str]:
    """``is too long (maximum is N characters)`` when ``value`` is a longer string."""
    if isinstance(value, str) and len(value) > maximum:
        return [f"is too long (maximum is {maximum} characters)"]
    return []


def name_errors(name: Any, maximum: int = MAX_LENGTH) -> list[str]:
    """A display name: not blank (null counts as blank) and at most ``maximum`` characters."""
    if name is None or not str(name).strip():
        return ["can't be blank"]
    return too_long(name, maximum)


def length_errors(fields: Mapping[str, Any], limits: Mapping[str, int]) -> dict[str, list[str]]:
    """``is too long`` for each of ``fields`` longer than its limit in ``limits``."""
    return {
        name: too_long(fields[name], maximum)
        for name, maximum in limits.items()
        if too_long(fields.get(name), maximum)
    }
