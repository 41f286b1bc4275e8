"""The JSON of an epic (seed 001 §2.6) and of an epic to-do.

Callers who may edit the epic also see the fixed and inherited date fields
(``start_date_is_fixed``, ``start_date_fixed``, ``start_date_from_inherited_source`` and
the deprecated ``start_date_from_milestones``, the same for due dates); ``subscribed`` is
only in single-epic answers.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.core.store import Store
from fakeservice.epics import models
from fakeservice.epics.models import Epic
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.notes import awards
from fakeservice.users.models import users
from fakeservice.users.views import user_ref

LABEL_COLOR = "#6699cc"


def epic_web_url(group: Namespace, epic: Epic, base_url: str) -> str:
    return f"{base_url}/groups/{group.full_path}/-/epics/{epic.iid}"


def label_details(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "color": LABEL_COLOR,
        "description": None,
        "description_html": "",
        "text_color": "#FFFFFF",
    }


def _edit_dates(
    kind: str, is_fixed: bool, fixed: dt.date | None, inherited: dt.date | None
) -> dict[str, Any]:
    """The fixed and inherited ``start`` or ``due`` date fields editors see."""
    return {
        f"{kind}_date_is_fixed": is_fixed,
        f"{kind}_date_fixed": iso_date(fixed),
        f"{kind}_date_from_milestones": iso_date(inherited),
        f"{kind}_date_from_inherited_source": iso_date(inherited),
    }


def epic_view(
    store: Store,
    epic: Epic,
    base_url: str,
    *,
    can_edit: bool,
    single: bool = False,
    label_objects: bool = False,
    subscribed: bool = False,
) -> dict[str, Any]:
    group = namespaces(store).rows[epic.group_id]
    parent = models.epics(store).get(epic.parent_id)
    start, due = models.start_date(store, epic), models.due_date(store, epic)
    up, down = awards.votes(store, "Epic", epic.id)
    api = f"{base_url}/api/v4/groups/{epic.group_id}"
    out: dict[str, Any] = {
        "id": epic.id,
        "iid": epic.iid,
        "group_id": epic.group_id,
        "parent_id": epic.parent_id,
        "parent_iid": parent.iid if parent is not None else None,
        "title": epic.title,
        "description": epic.description,
        "state": epic.state,
        "confidential": epic.confidential,
        "web_url": epic_web_url(group, epic, base_url),
        "reference": f"&{epic.iid}",
        "references": {
            "short": f"&{epic.iid}",
            "relative": f"&{epic.iid}",
            "full": f"{group.full_path}&{epic.iid}",
        },
        "author": user_ref(users(store).get(epic.author_id), base_url),
        "start_date": iso_date(start),
    }
    if can_edit:
        out.update(
            _edit_dates(
                "start",
                epic.start_date_is_fixed,
                epic.start_date_fixed,
                models.inherited_start(store, epic),
            )
        )
    out["end_date"] = iso_date(due)
    out["due_date"] = iso_date(due)
    if can_edit:
        out.update(
            _edit_dates(
                "due",
                epic.due_date_is_fixed,
                epic.due_date_fixed,
                models.inherited_due(store, epic),
            )
        )
    out.update(
        {
            "created_at": iso(epic.created_at),
            "updated_at": iso(epic.updated_at),
            "closed_at": iso(epic.closed_at),
            "labels": [label_details(n) for n in epic.labels]
            if label_objects
            else list(epic.labels),
            "upvotes": up,
            "downvotes": down,
            "user_notes_count": epic.user_notes_count,
        }
    )
    if single:
        out["subscribed"] = subscribed
    out["_links"] = {
        "self": f"{api}/epics/{epic.iid}",
        "epic_issues": f"{api}/epics/{epic.iid}/issues",
        "group": api,
        "parent": (
            f"{base_url}/api/v4/groups/{parent.group_id}/epics/{parent.iid}"
            if parent is not None
            else None
        ),
    }
    return out


def group_ref(group: Namespace, base_url: str) -> dict[str, Any]:
    return {
        "id": group.id,
        "name": group.name,
        "path": group.path,
        "kind": "group",
        "full_path": group.full_path,
        "parent_id": group.parent_id,
        "avatar_url": None,
        "web_url": f"{base_url}/groups/{group.full_path}",
    }
