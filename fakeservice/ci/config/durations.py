"""Human durations (``1 week``, ``2 hrs 20 min``, ``1h30m``, ``90``) and ``expire_in``."""

from __future__ import annotations

import re
from typing import Any

_DURATION_UNITS: dict[str, int] = {}
for _names, _seconds in (
    (("s", "sec", "secs", "second", "seconds"), 1),
    (("m", "min", "mins", "minute", "minutes"), 60),
    (("h", "hr", "hrs", "hour", "hours"), 3600),
    (("d", "day", "days"), 86400),
    (("w", "wk", "wks", "week", "weeks"), 7 * 86400),
    (("mo", "mos", "month", "months"), 30 * 86400),
    (("y", "yr", "yrs", "year", "years"), 365 * 86400),
):
    for _name in _names:
        _DURATION_UNITS[_name] = _seconds

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)")


def parse_duration(text: Any) -> int:
    """Seconds in a human duration (``1 week``, ``2 hrs 20 min``, ``1h30m``, ``90``).

    Raises :class:`ValueError` when the text is not a duration. ``never`` is the caller's
    business (see :func:`parse_expire_in`).
    """
    if isinstance(text, bool):
        raise ValueError(f"not a duration: {text!r}")
    if isinstance(text, int | float):
        return int(text)
    if not isinstance(text, str):
        raise ValueError(f"not a duration: {text!r}")
    cleaned = re.sub(r"\b(and)\b|,", " ", text.strip().lower())
    if not cleaned.strip():
        raise ValueError(f"not a duration: {text!r}")
    total = 0.0
    position = 0
    cleaned = cleaned.strip()
    while position < len(cleaned):
        if cleaned[position].isspace():
            position += 1
            continue
        match = _DURATION_PART.match(cleaned, position)
        if not match or match.end() == position:
            raise ValueError(f"not a duration: {text!r}")
        number, unit = match.groups()
        if unit and unit not in _DURATION_UNITS:
            raise ValueError(f"not a duration: {text!r}")
        total += float(number) * _DURATION_UNITS[unit or "s"]
        position = match.end()
    return round(total)


def parse_expire_in(text: Any) -> int | None:
    """``artifacts:expire_in`` in seconds; None for ``never``."""
    if isinstance(text, str) and text.strip().lower() == "never":
        return None
    return parse_duration(text)


def _is_duration(value: Any) -> bool:
    try:
        parse_duration(value)
    except ValueError:
        return False
    return True
