"""Model validation messages shared by every area (names, lengths), worded as the service
words them."""

from __future__ import annotations

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
