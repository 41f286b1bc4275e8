"""The service's one clock: frozen, manual (moves only when told) or real (wall time).

Every timestamp the service writes comes from here, so that the same scenario and the
same requests give byte-identical responses under the frozen and manual modes.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Literal

ClockMode = Literal["frozen", "manual", "real"]
CLOCK_MODES: tuple[str, ...] = ("frozen", "manual", "real")
UTC = dt.UTC
DEFAULT_START = dt.datetime(2026, 1, 1, 9, 0, 0, tzinfo=UTC)


# The latest instant a clock may show: far enough that ``now + any lifetime`` still fits.
LATEST = dt.datetime(9000, 1, 1, tzinfo=dt.UTC)
_LATEST_TEXT = "9000-01-01T00:00:00Z"


class ClockError(ValueError):
    """Raised when a clock is asked to do what its mode forbids (e.g. move a frozen clock)."""


class Clock:
    """A source of 'now' for the whole service.

    * ``frozen``: always answers the start time; advancing it is an error.
    * ``manual``: answers the start time until advanced or set (never backwards).
    * ``real``: answers wall-clock time shifted so that it begins at the start time
      when ``anchored`` is true, or plain UTC wall time otherwise.
    """

    def __init__(
        self,
        mode: ClockMode = "manual",
        start: dt.datetime | None = None,
        *,
        anchored: bool = False,
        wall: Callable[[], float] = time.time,
    ) -> None:
        if mode not in CLOCK_MODES:
            raise ClockError(f"unknown clock mode {mode!r}; use one of {', '.join(CLOCK_MODES)}")
        self.mode: ClockMode = mode
        self._wall = wall
        self._start = _aware(start or DEFAULT_START)
        self._now = self._start
        self._offset = (self._start.timestamp() - wall()) if anchored else 0.0
        self._listeners: list[Callable[[dt.datetime, dt.datetime], None]] = []

    # -- reading -------------------------------------------------------------------------
    def now(self) -> dt.datetime:
        if self.mode == "real":
            return dt.datetime.fromtimestamp(self._wall() + self._offset, tz=UTC)
        return self._now

    def timestamp(self) -> float:
        return self.now().timestamp()

    @property
    def start(self) -> dt.datetime:
        return self._start

    # -- moving --------------------------------------------------------------------------
    def advance(self, seconds: float = 0.0, **delta: float) -> dt.datetime:
        """Move a manual clock forward by ``seconds`` (plus ``minutes=``, ``hours=``...)."""
        try:
            step = dt.timedelta(seconds=seconds, **delta)
            if step < dt.timedelta(0):
                raise ClockError("the clock cannot go backwards")
            when = self.now() + step
        except (OverflowError, ValueError) as exc:
            if isinstance(exc, ClockError):
                raise
            raise ClockError(
                f"the clock cannot move that far (the latest time is {_LATEST_TEXT})"
            ) from exc
        return self.set(when)

    def set(self, when: dt.datetime) -> dt.datetime:
        """Set a manual clock to ``when``, which may not be earlier than now."""
        if self.mode != "manual":
            raise ClockError(f"a {self.mode} clock cannot be moved; use mode 'manual'")
        when = _aware(when)
        before = self._now
        if when > LATEST:
            raise ClockError(f"the clock cannot move that far (the latest time is {_LATEST_TEXT})")
        if when < before:
            raise ClockError("the clock cannot go backwards")
        self._now = when
        for listener in list(self._listeners):
            listener(before, when)
        return when

    def on_change(self, listener: Callable[[dt.datetime, dt.datetime], None]) -> None:
        """Call ``listener(before, after)`` whenever a manual clock moves."""
        self._listeners.append(listener)

    # -- persistence ---------------------------------------------------------------------
    def state(self) -> dict[str, object]:
        return {"mode": self.mode, "start": self._start, "now": self.now(), "offset": self._offset}

    def load_state(self, state: dict[str, object]) -> None:
        self.mode = state["mode"]  # type: ignore[assignment]
        self._start = state["start"]  # type: ignore[assignment]
        self._now = state["now"]  # type: ignore[assignment]
        self._offset = float(state.get("offset", self._offset))  # type: ignore[arg-type]


def _aware(when: dt.datetime) -> dt.datetime:
    return when if when.tzinfo else when.replace(tzinfo=UTC)


@lru_cache(maxsize=4096)  # the same few times are rendered over and over
def iso(when: dt.datetime | None) -> str | None:
    """Render a timestamp as the API does: ``YYYY-MM-DDThh:mm:ssZ`` (milliseconds when non-zero)."""
    if when is None:
        return None
    when = when.astimezone(UTC)
    base = when.strftime("%Y-%m-%dT%H:%M:%S")
    if when.microsecond:
        base += f".{when.microsecond // 1000:03d}"
    return base + "Z"


def iso_date(when: dt.date | dt.datetime | None) -> str | None:
    """Render a date as ``YYYY-MM-DD``."""
    if when is None:
        return None
    if isinstance(when, dt.datetime):
        when = when.astimezone(UTC).date()
    return when.isoformat()


def as_time(value: object) -> dt.datetime:
    """A time written in a scenario: a YAML timestamp (one without a zone is UTC), a
    date (its midnight UTC) or ISO 8601 text (:func:`parse_iso`)."""
    if isinstance(value, dt.datetime):
        return _aware(value).astimezone(UTC)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, tzinfo=UTC)
    return parse_iso(str(value))


def parse_iso(text: str) -> dt.datetime:
    """Parse an ISO 8601 datetime (``Z`` or offset; a bare date is midnight UTC)."""
    value = text.strip()
    if not value:
        raise ValueError("empty datetime")
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    if len(value) == 10:
        day = dt.date.fromisoformat(value)
        return dt.datetime(day.year, day.month, day.day, tzinfo=UTC)
    parsed = dt.datetime.fromisoformat(value)
    return _aware(parsed).astimezone(UTC)


def seconds_between(later: dt.datetime, earlier: dt.datetime) -> float:
    return (later - earlier).total_seconds()
