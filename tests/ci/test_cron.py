"""The five-field cron evaluator behind ``next_run_at``: parsing, Vixie day rules, time
zones, and (hypothesis) that the answer matches and nothing earlier does."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fakeservice.ci.schedules.cron import CronError, next_run, parse

NOW = dt.datetime(2026, 1, 1, 12, 30, 20, tzinfo=dt.UTC)  # a Thursday


@pytest.mark.parametrize(
    ("expression", "zone", "expected"),
    [
        ("* * * * *", "UTC", dt.datetime(2026, 1, 1, 12, 31)),
        ("*/15 * * * *", "UTC", dt.datetime(2026, 1, 1, 12, 45)),
        ("30 12 * * *", "UTC", dt.datetime(2026, 1, 2, 12, 30)),
        ("0 9 * * mon-fri", "UTC", dt.datetime(2026, 1, 2, 9, 0)),
        ("0 9 * * 7", "UTC", dt.datetime(2026, 1, 4, 9, 0)),
        ("0 0 1 * mon", "UTC", dt.datetime(2026, 1, 5, 0, 0)),
        ("0 0 29 feb *", "UTC", dt.datetime(2028, 2, 29, 0, 0)),
        ("5,10 1-3/2 * * *", "UTC", dt.datetime(2026, 1, 2, 1, 5)),
        ("0 9 * * *", "Asia/Tokyo", dt.datetime(2026, 1, 2, 0, 0)),
        ("0 9 * * *", "America/New_York", dt.datetime(2026, 1, 1, 14, 0)),
    ],
)
def test_next_run(expression: str, zone: str, expected: dt.datetime) -> None:
    assert next_run(parse(expression), NOW, zone) == expected.replace(tzinfo=dt.UTC)


def test_an_impossible_day_has_no_next_run() -> None:
    assert next_run(parse("0 0 30 2 *"), NOW) is None


@pytest.mark.parametrize(
    "expression",
    [
        "",
        "* * * *",
        "* * * * * *",
        "60 * * * *",
        "* 24 * * *",
        "* * 0 * *",
        "* * * 13 *",
        "* * * * 8",
        "5-1 * * * *",
        "*/0 * * * *",
        "a * * * *",
        "* * * foo *",
        "1,,2 * * * *",
    ],
)
def test_invalid_expressions_are_refused(expression: str) -> None:
    with pytest.raises(CronError):
        parse(expression)


FIELD = st.one_of(
    st.just("*"),
    st.integers(0, 59).map(str),
    st.integers(1, 20).map(lambda n: f"*/{n}"),
)


@settings(max_examples=150, deadline=None)
@given(
    minute=FIELD,
    hour=st.one_of(st.just("*"), st.integers(0, 23).map(str)),
    day=st.one_of(st.just("*"), st.integers(1, 28).map(str)),
    weekday=st.one_of(st.just("*"), st.integers(0, 7).map(str)),
    offset=st.integers(0, 10**6),
)
def test_the_next_run_matches_and_nothing_earlier_does(
    minute: str, hour: str, day: str, weekday: str, offset: int
) -> None:
    cron = parse(f"{minute} {hour} {day} * {weekday}")
    after = NOW + dt.timedelta(minutes=offset)
    found = next_run(cron, after)
    assert found is not None and found > after and found.second == 0

    def matches(when: dt.datetime) -> bool:
        return (
            when.minute in cron.minutes
            and when.hour in cron.hours
            and cron.day_matches(when.date())
        )

    assert matches(found)
    probe = after.replace(second=0, microsecond=0) + dt.timedelta(minutes=1)
    if found - probe <= dt.timedelta(days=3):  # check the gap minute by minute when short
        while probe < found:
            assert not matches(probe)
            probe += dt.timedelta(minutes=1)
