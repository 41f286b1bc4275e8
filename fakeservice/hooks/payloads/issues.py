"""Issue payloads (``object_kind`` ``issue``): the issue's attributes with the ``action``
(``open``, ``update``, ``close``, ``reopen``) and the ``changes`` of an update."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import issuable_payload, labels_payload
from fakeservice.projects.models import Project
from fakeservice.users.models import User


def changes_payload(record: Any, before: dict[str, Any], now: dt.datetime) -> dict[str, Any]:
    """``{"field": {"previous": .., "current": ..}}`` for the attributes that changed."""
    out: dict[str, Any] = {}
    for name, old in before.items():
        key = "assignees" if name == "assignee_ids" else name
        key = "reviewers" if name == "reviewer_ids" else key
        out[key] = {"previous": old, "current": getattr(record, name)}
    if out:
        out["updated_at"] = {"previous": None, "current": iso(now)}
    return out


def issue_attributes(
    store: Store, project: Project, record: Any, action: str | None, base_url: str
) -> dict[str, Any]:
    web_url = f"{base_url}/{project.path_with_namespace}/-/issues/{record.iid}"
    return {
        "id": record.id,
        "iid": record.iid,
        "title": record.title,
        "description": record.description,
        "author_id": record.author_id,
        "project_id": record.project_id,
        "assignee_ids": list(record.assignee_ids),
        "assignee_id": record.assignee_ids[0] if record.assignee_ids else None,
        "milestone_id": record.milestone_id,
        "confidential": record.confidential,
        "discussion_locked": record.discussion_locked,
        "due_date": iso_date(record.due_date),
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
        "closed_at": iso(record.closed_at),
        "updated_by_id": None,
        "weight": record.weight,
        "state": record.state,
        "state_id": 2 if record.state == "closed" else 1,
        "severity": "unknown",
        "type": "Issue" if record.issue_type == "issue" else record.issue_type.title(),
        "url": web_url,
        "labels": labels_payload(store, list(record.label_ids)),
        **({"action": action} if action else {}),
    }


def issue_payload(
    store: Store,
    project: Project,
    record: Any,
    user: User | None,
    base_url: str,
    *,
    action: str | None,
    changes: dict[str, Any],
) -> dict[str, Any]:
    kind = "issue" if record.issue_type != "work_item" else "work_item"
    attributes = issue_attributes(store, project, record, action, base_url)
    return issuable_payload(store, project, kind, record, attributes, user, base_url, changes)
