"""JSON fields issues and merge requests share: people, labels (names or details),
milestone, references, time stats and task completion."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.labels.models import sorted_names
from fakeservice.labels.views import label_basic
from fakeservice.milestones.models import milestones
from fakeservice.milestones.views import milestone_view
from fakeservice.projects.models import Project
from fakeservice.users.models import users
from fakeservice.users.views import user_ref

_TASK = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+\[([ xX])\]", re.MULTILINE)


def head(record: Any) -> dict[str, Any]:
    """The fields every issuable shape opens with."""
    return {
        "id": record.id,
        "iid": record.iid,
        "project_id": record.project_id,
        "title": record.title,
        "description": record.description,
        "state": record.state,
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
    }


def people(store: Store, ids: list[int], base_url: str) -> list[dict[str, Any]]:
    table = users(store)
    found = (table.get(i) for i in ids)
    return [ref for ref in (user_ref(u, base_url) for u in found if u is not None) if ref]


def labels_field(store: Store, ids: list[int], details: bool) -> list[Any]:
    found = sorted_names(store, ids)
    if details:
        return [label_basic(label) for label in found]
    return [label.name for label in found]


def milestone_field(
    store: Store, milestone_id: int | None, base_url: str, now: dt.datetime
) -> dict[str, Any] | None:
    record = milestones(store).get(milestone_id)
    return None if record is None else milestone_view(store, record, base_url, now)


def references(project: Project, sign: str, iid: int) -> dict[str, str]:
    short = f"{sign}{iid}"
    return {"short": short, "relative": short, "full": f"{project.path_with_namespace}{short}"}


def task_completion(description: str | None) -> dict[str, int]:
    marks = _TASK.findall(description or "")
    return {"count": len(marks), "completed_count": sum(1 for m in marks if m in "xX")}


TIME_STATS = {
    "time_estimate": 0,
    "total_time_spent": 0,
    "human_time_estimate": None,
    "human_total_time_spent": None,
}


def time_stats() -> dict[str, Any]:
    return dict(TIME_STATS)
