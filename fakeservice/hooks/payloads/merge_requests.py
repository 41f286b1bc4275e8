"""Merge request payloads (``object_kind`` ``merge_request``), with ``action`` ``open``,
``update``, ``merge``, ``close`` or ``reopen``."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import (
    issuable_payload,
    labels_payload,
    project_of,
    project_payload,
    users_payload,
)
from fakeservice.projects.models import Project
from fakeservice.users.models import User

STATE_IDS = {"opened": 1, "closed": 2, "merged": 3, "locked": 4}


def merge_request_attributes(
    store: Store, project: Project, record: Any, action: str | None, base_url: str
) -> dict[str, Any]:
    source = project_of(store, record.source_project_id) or project
    return {
        "id": record.id,
        "iid": record.iid,
        "target_branch": record.target_branch,
        "source_branch": record.source_branch,
        "source_project_id": record.source_project_id,
        "author_id": record.author_id,
        "assignee_ids": list(record.assignee_ids),
        "assignee_id": record.assignee_ids[0] if record.assignee_ids else None,
        "reviewer_ids": list(record.reviewer_ids),
        "title": record.title,
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
        "milestone_id": record.milestone_id,
        "state": record.state,
        "state_id": STATE_IDS.get(record.state, 1),
        "merge_status": record.merge_status,
        "detailed_merge_status": "mergeable" if record.state == "opened" else "not_open",
        "target_project_id": record.project_id,
        "description": record.description,
        "merge_commit_sha": record.merge_commit_sha,
        "merge_when_pipeline_succeeds": record.merge_when_pipeline_succeeds,
        "head_pipeline_id": record.head_pipeline_id,
        "draft": record.title.lower().startswith(("draft:", "[draft]", "(draft)")),
        "url": f"{base_url}/{project.path_with_namespace}/-/merge_requests/{record.iid}",
        "source": project_payload(store, source, base_url),
        "target": project_payload(store, project, base_url),
        "last_commit": {"id": record.sha} if record.sha else None,
        "labels": labels_payload(store, list(record.label_ids)),
        **({"action": action} if action else {}),
    }


def merge_request_payload(
    store: Store,
    project: Project,
    record: Any,
    user: User | None,
    base_url: str,
    *,
    action: str | None,
    changes: dict[str, Any],
) -> dict[str, Any]:
    attributes = merge_request_attributes(store, project, record, action, base_url)
    out = issuable_payload(
        store, project, "merge_request", record, attributes, user, base_url, changes
    )
    out["reviewers"] = users_payload(store, list(record.reviewer_ids), base_url)
    return out
