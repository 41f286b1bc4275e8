"""JSON shape of a milestone (also embedded in issues and merge requests)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.milestones.models import PROJECT, Milestone, expired
from fakeservice.projects.models import projects


def milestone_view(
    store: Store, record: Milestone, base_url: str, now: dt.datetime
) -> dict[str, Any]:
    if record.owner_kind == PROJECT:
        project = projects(store).rows[record.owner_id]
        owner: dict[str, Any] = {"project_id": record.owner_id}
        web_url = f"{base_url}/{project.path_with_namespace}/-/milestones/{record.iid}"
    else:
        group = namespaces(store).rows[record.owner_id]
        owner = {"group_id": record.owner_id}
        web_url = f"{base_url}/groups/{group.full_path}/-/milestones/{record.iid}"
    return {
        "id": record.id,
        "iid": record.iid,
        **owner,
        "title": record.title,
        "description": record.description,
        "state": record.state,
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
        "due_date": iso_date(record.due_date),
        "start_date": iso_date(record.start_date),
        "expired": expired(record, now),
        "web_url": web_url,
    }
