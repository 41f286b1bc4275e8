"""A small five-field cron evaluator (minute, hour, day of month, month, day of week).

Each field is ``*``, a number, a range ``a-b``, a step ``*/n`` or ``a-b/n``, or a comma
list of those; months and weekdays also take three-letter names, and weekday 7 is Sunday.
As in Vixie cron, when both day fields are restricted a day matching either one runs.
:func:`next_run` answers the first matching minute strictly after a moment, evaluated in
the schedule's time zone and answered in UTC.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import attrs

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
# (low, high, names whose index plus ``offset`` is the value)
BOUNDS = ((0, 59, (), 0), (0, 23, (), 0), (1, 31, (), 0), (1, 12, MONTHS, 1), (0, 7, DAYS, 0))
HORIZON_DAYS = 366 * 8  # a 29th of February on a given weekday comes within 28 years; enough


class CronError(ValueError):
    """The expression is not a valid five-field cron."""


@attrs.frozen
class Cron:
    minutes: frozenset[int]
    hours: frozenset[int]
    days: frozenset[int]
    months: frozenset[int]
    weekdays: frozenset[int]
    any_day: bool
    any_weekday: bool

    def day_matches(self, day: dt.date) -> bool:
        if day.month not in self.months:
            return False
        in_month = day.day in self.days
        on_weekday = (day.isoweekday() % 7) in self.weekdays
        if self.any_day or self.any_weekday:
            return in_month and on_weekday
        return in_month or on_weekday


def _value(text: str, low: int, high: int, names: tuple[str, ...], offset: int) -> int:
    lowered = text.lower()
    if lowered in names:
        return names.index(lowered) + offset
    if not text.isdigit():
        raise CronError(text)
    number = int(text)
    if not low <= number <= high:
        raise CronError(text)
    return number


def _field(text: str, low: int, high: int, names: tuple[str, ...], offset: int) -> set[int]:
    out: set[int] = set()
    for part in text.split(","):
        span, _, step_text = part.partition("/")
        step = 1
        if step_text:
            if not step_text.isdigit() or int(step_text) == 0:
                raise CronError(part)
            step = int(step_text)
        if span == "*":
            first, last = low, high
        elif "-" in span:
            a, _, b = span.partition("-")
            first, last = _value(a, low, high, names, offset), _value(b, low, high, names, offset)
            if first > last:
                raise CronError(part)
        else:
            first = _value(span, low, high, names, offset)
            last = high if step_text else first
        out.update(range(first, last + 1, step))
    return out


def parse(expression: str) -> Cron:
    """The cron ``expression`` (:class:`CronError` when it is not five valid fields)."""
    fields = expression.split()
    if len(fields) != 5:
        raise CronError(expression)
    sets = [_field(text, *bounds) for text, bounds in zip(fields, BOUNDS, strict=True)]
    weekdays = {d % 7 for d in sets[4]}
    return Cron(
        minutes=frozenset(sets[0]),
        hours=frozenset(sets[1]),
        days=frozenset(sets[2]),
        months=frozenset(sets[3]),
        weekdays=frozenset(weekdays),
        any_day=fields[2] == "*",
        any_weekday=fields[4] == "*",
    )


def valid_timezone(name: str) -> bool:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


def next_run(cron: Cron, after: dt.datetime, timezone: str = "UTC") -> dt.datetime | None:
    """The first minute matching ``cron`` strictly after ``after`` (aware), in UTC; ``None``
    when no day within the horizon matches (``0 0 30 2 *``)."""
    zone = zoneinfo.ZoneInfo(timezone)
    local = after.astimezone(zone).replace(second=0, microsecond=0, tzinfo=None)
    start = local + dt.timedelta(minutes=1)
    day = start.date()
    for _ in range(HORIZON_DAYS):
        if cron.day_matches(day):
            floor = start if day == start.date() else dt.datetime.combine(day, dt.time())
            for hour in sorted(h for h in cron.hours if h >= floor.hour):
                low = floor.minute if hour == floor.hour else 0
                minute = min((m for m in cron.minutes if m >= low), default=None)
                if minute is not None:
                    wall = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=zone)
                    return wall.astimezone(dt.UTC)
        day += dt.timedelta(days=1)
    return None
