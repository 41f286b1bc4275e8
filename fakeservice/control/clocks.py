"""Clock control: read the clock as data, move it, switch its mode.

Switching mode rebuilds the clock's state in place (listeners are kept, so areas that
react to clock moves keep working): ``real`` continues from the current time,
``manual`` and ``frozen`` stop at it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import CLOCK_MODES, Clock, ClockError, as_time, iso


def clock_info(clock: Clock) -> dict[str, Any]:
    now = clock.now()
    return {
        "now": iso(now),
        "timestamp": now.timestamp(),
        "mode": clock.mode,
        "start": iso(clock.start),
    }


def as_datetime(value: Any) -> dt.datetime:
    """A datetime from a datetime, a date or an ISO 8601 string (UTC when no offset)."""
    if not isinstance(value, dt.date | str):
        raise ClockError(f"{value!r} is not a time")
    try:
        return as_time(value)
    except ValueError as exc:
        raise ClockError(f"{value!r} is not an ISO 8601 time") from exc


def reconfigure(clock: Clock, mode: str | None = None, start: Any = None) -> None:
    """Give ``clock`` a new mode and/or start time, in place, keeping its listeners."""
    mode = mode or clock.mode
    if mode not in CLOCK_MODES:
        raise ClockError(f"unknown clock mode {mode!r}; use one of {', '.join(CLOCK_MODES)}")
    when = as_datetime(start) if start is not None else clock.now()
    listeners = clock._listeners
    fresh = Clock(mode, when, anchored=True)  # type: ignore[arg-type]
    clock.__dict__.update(fresh.__dict__)
    clock._listeners = listeners
