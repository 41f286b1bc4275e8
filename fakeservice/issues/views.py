"""JSON shape of an issue (list item and single, which adds ``subscribed``). Other areas
add fields through ``ISSUE_VIEW`` listeners (``listener(store, issue, out, now)``: the
epics area's ``epic`` and ``epic_iid``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.issues import shared_views as common
from fakeservice.issues.models import Issue
from fakeservice.notes import awards
from fakeservice.projects.models import projects
from fakeservice.users.models import users
from fakeservice.users.views import user_ref

ISSUE_VIEW = "issue.view"


def issue_view(
    store: Store,
    record: Issue,
    base_url: str,
    now: dt.datetime,
    *,
    caller_id: int | None = None,
    single: bool = False,
    label_details: bool = False,
) -> dict[str, Any]:
    project = projects(store).rows[record.project_id]
    assignees = common.people(store, record.assignee_ids, base_url)
    up, down = awards.votes(store, "Issue", record.id)
    web_url = f"{base_url}/{project.path_with_namespace}/-/issues/{record.iid}"
    api = f"{base_url}/api/v4/projects/{project.id}"
    out: dict[str, Any] = {
        **common.head(record),
        "closed_at": iso(record.closed_at),
        "closed_by": user_ref(users(store).get(record.closed_by_id), base_url),
        "labels": common.labels_field(store, record.label_ids, label_details),
        "milestone": common.milestone_field(store, record.milestone_id, base_url, now),
        "assignees": assignees,
        "author": user_ref(users(store).get(record.author_id), base_url),
        "type": record.issue_type.upper(),
        "assignee": assignees[0] if assignees else None,
        "user_notes_count": record.user_notes_count,
        "merge_requests_count": 0,
        "upvotes": up,
        "downvotes": down,
        "due_date": iso_date(record.due_date),
        "confidential": record.confidential,
        "discussion_locked": record.discussion_locked,
        "issue_type": record.issue_type,
        "web_url": web_url,
        "time_stats": common.time_stats(),
        "task_completion_status": common.task_completion(record.description),
        "weight": record.weight,
        "blocking_issues_count": 0,
        "has_tasks": True,
        "task_status": "",
        "_links": {
            "self": f"{api}/issues/{record.iid}",
            "notes": f"{api}/issues/{record.iid}/notes",
            "award_emoji": f"{api}/issues/{record.iid}/award_emoji",
            "project": api,
            "closed_as_duplicate_of": None,
        },
        "references": common.references(project, "#", record.iid),
        "severity": "UNKNOWN",
        "moved_to_id": None,
        "service_desk_reply_to": None,
    }
    for extension in listeners(store, ISSUE_VIEW):
        extension(store, record, out, now)
    if single:
        out["subscribed"] = caller_id is not None and (
            caller_id in record.subscriber_ids
            or caller_id == record.author_id
            or caller_id in record.assignee_ids
        )
    return out
