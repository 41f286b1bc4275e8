"""The ``epic`` and ``epic_iid`` fields of issue views (an ``ISSUE_VIEW`` listener): the
epic the issue is assigned to, or null; both left out on a plan without epics.

``epic`` is ``{id, iid, title, url, group_id, human_readable_end_date,
human_readable_timestamp}``: ``url`` is the epic's path on the web (no host), the end
date is the epic's due date as ``Dec 31, 2026``, and the timestamp says how it stands on
the service clock's day: ``Past due``, ``Upcoming`` (it starts later), ``<strong>3</strong>
days remaining`` (the distance in words, as the real service's helper), or the days
elapsed since its start when it has no due date.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from fakeservice.core.store import Store
from fakeservice.epics import issue_links, models
from fakeservice.groups.models import namespaces
from fakeservice.instance.models import has_paid_plan

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MINUTES_PER_DAY = 1440
MINUTES_PER_MONTH = 43200
MINUTES_PER_YEAR = 525600


def medium_date(day: dt.date | None) -> str | None:
    return None if day is None else f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def distance_in_words(days: int) -> str:
    """The real service's distance in words between two dates ``days`` apart, without
    its leading ``about``."""
    minutes = abs(days) * MINUTES_PER_DAY
    if minutes < 1:
        return "less than a minute"
    if minutes < 2520:
        return "1 day"
    if minutes < MINUTES_PER_MONTH:
        return f"{round(minutes / MINUTES_PER_DAY)} days"
    if minutes < 2 * MINUTES_PER_MONTH:
        return "1 month"
    if minutes < MINUTES_PER_YEAR:
        return f"{round(minutes / MINUTES_PER_MONTH)} months"
    years, remainder = divmod(minutes, MINUTES_PER_YEAR)
    unit = "year" if years == 1 else "years"
    if remainder < 131400:
        return f"{years} {unit}"
    if remainder < 394200:
        return f"over {years} {unit}"
    return f"almost {years + 1} years"


def remaining_in_words(due: dt.date | None, start: dt.date | None, today: dt.date) -> str | None:
    if due is not None and due < today:
        return "Past due"
    if start is not None and start > today:
        return "Upcoming"
    if due is not None:
        words = re.sub(
            r"\d+", lambda m: f"<strong>{m.group()}</strong>", distance_in_words((due - today).days)
        )
        return f"{words} {'remaining' if due > today else 'ago'}"
    if start is not None and start < today:
        days = (today - start).days
        return f"<strong>{days}</strong> {'day' if days == 1 else 'days'} elapsed"
    return None


def epic_ref(store: Store, epic: models.Epic, now: dt.datetime) -> dict[str, Any]:
    group = namespaces(store).rows[epic.group_id]
    due = models.due_date(store, epic)
    return {
        "id": epic.id,
        "iid": epic.iid,
        "title": epic.title,
        "url": f"/groups/{group.full_path}/-/epics/{epic.iid}",
        "group_id": epic.group_id,
        "human_readable_end_date": medium_date(due),
        "human_readable_timestamp": remaining_in_words(
            due, models.start_date(store, epic), now.date()
        ),
    }


def extend_issue(store: Store, issue: Any, out: dict[str, Any], now: dt.datetime) -> None:
    """Add ``epic_iid`` and ``epic`` to an issue view (on a plan with epics)."""
    if not has_paid_plan(store):
        return
    link = issue_links.of_issue(store, issue.id)
    epic = None if link is None else models.epics(store).get(link.epic_id)
    out["epic_iid"] = None if epic is None else epic.iid
    out["epic"] = None if epic is None else epic_ref(store, epic, now)
