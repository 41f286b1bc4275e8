"""JSON shapes of merge requests: the list item, ``view=simple``, the single merge request
(with git-derived fields), changes, diffs and commits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.models import pipelines
from fakeservice.ci.views import Renderer
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.issues import shared_views as common
from fakeservice.merge_requests import gitops, operations
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.notes import awards
from fakeservice.notes.models import unresolved_count
from fakeservice.projects.models import projects
from fakeservice.repository.views import commit_view, diff_view
from fakeservice.users.models import users
from fakeservice.users.views import user_ref


def web_url(store: Store, record: MergeRequest, base_url: str) -> str:
    project = projects(store).rows[record.project_id]
    return f"{base_url}/{project.path_with_namespace}/-/merge_requests/{record.iid}"


def simple_view(store: Store, record: MergeRequest, base_url: str) -> dict[str, Any]:
    return {**common.head(record), "web_url": web_url(store, record, base_url)}


def _user(store: Store, user_id: int | None, base_url: str) -> dict[str, Any] | None:
    return user_ref(users(store).get(user_id), base_url)


def item_view(
    store: Store,
    record: MergeRequest,
    base_url: str,
    now: dt.datetime,
    *,
    label_details: bool = False,
) -> dict[str, Any]:
    """A list item (no repository work)."""
    project = projects(store).rows[record.project_id]
    assignees = common.people(store, record.assignee_ids, base_url)
    merged_by = _user(store, record.merged_by_id, base_url)
    up, down = awards.votes(store, "MergeRequest", record.id)
    return {
        **common.head(record),
        "merged_by": merged_by,
        "merge_user": _user(store, record.merge_user_id, base_url)
        if record.state == "merged" or record.merge_when_pipeline_succeeds
        else None,
        "merged_at": iso(record.merged_at),
        "closed_by": _user(store, record.closed_by_id, base_url),
        "closed_at": iso(record.closed_at),
        "target_branch": record.target_branch,
        "source_branch": record.source_branch,
        "user_notes_count": record.user_notes_count,
        "upvotes": up,
        "downvotes": down,
        "author": _user(store, record.author_id, base_url),
        "assignees": assignees,
        "assignee": assignees[0] if assignees else None,
        "reviewers": common.people(store, record.reviewer_ids, base_url),
        "source_project_id": record.source_project_id,
        "target_project_id": record.project_id,
        "labels": common.labels_field(store, record.label_ids, label_details),
        "draft": record.draft,
        "work_in_progress": record.draft,
        "milestone": common.milestone_field(store, record.milestone_id, base_url, now),
        "merge_when_pipeline_succeeds": record.merge_when_pipeline_succeeds,
        "merge_status": record.merge_status,
        "detailed_merge_status": _detailed(record, discussions_resolved(store, project, record)),
        "sha": record.sha,
        "merge_commit_sha": record.merge_commit_sha,
        "squash_commit_sha": record.squash_commit_sha,
        "discussion_locked": record.discussion_locked,
        "should_remove_source_branch": record.should_remove_source_branch,
        "force_remove_source_branch": record.force_remove_source_branch,
        "allow_collaboration": record.allow_collaboration,
        "allow_maintainer_to_push": record.allow_collaboration,
        "reference": f"!{record.iid}",
        "references": common.references(project, "!", record.iid),
        "web_url": web_url(store, record, base_url),
        "time_stats": common.time_stats(),
        "squash": record.squash,
        "squash_on_merge": record.squash,
        "task_completion_status": common.task_completion(record.description),
        "has_conflicts": record.has_conflicts,
        "blocking_discussions_resolved": discussions_resolved(store, project, record),
        "approvals_before_merge": record.approvals_before_merge,
    }


def discussions_resolved(store: Store, project: Any, record: MergeRequest) -> bool:
    """False while the project wants every thread resolved and one is not."""
    if not project.only_allow_merge_if_all_discussions_are_resolved:
        return True
    return unresolved_count(store, "MergeRequest", record.id) == 0


def _detailed(record: MergeRequest, resolved: bool) -> str:
    if record.state != "opened":
        return "not_open"
    if record.draft:
        return "draft_status"
    if record.merge_status in ("unchecked", "checking", "cannot_be_merged_recheck"):
        return (
            record.merge_status if record.merge_status != "cannot_be_merged_recheck" else "checking"
        )
    if record.has_conflicts:
        return "conflict"
    if not resolved:
        return "discussions_not_resolved"
    return "mergeable"


def _pipeline_ref(
    store: Store, pipeline_id: int | None, base_url: str, now: dt.datetime
) -> dict[str, Any] | None:
    pipeline = pipelines(store).get(pipeline_id)
    return None if pipeline is None else Renderer(store, base_url, now).pipeline_item(pipeline)


def single_view(
    store: Store,
    record: MergeRequest,
    base_url: str,
    now: dt.datetime,
    *,
    caller_id: int | None,
    label_details: bool = False,
    rebase: bool = False,
    diverged: bool = False,
    head_pipeline_id: int | None = None,
    can_merge: bool = False,
) -> dict[str, Any]:
    out = item_view(store, record, base_url, now, label_details=label_details)
    repo = operations.repo_of(store, record)
    changed = gitops.changes(repo, record.base_sha, record.sha)
    pipeline = _pipeline_ref(store, head_pipeline_id, base_url, now)
    out.update(
        {
            "subscribed": subscribed(record, caller_id),
            "changes_count": str(len(changed)),
            "latest_build_started_at": None,
            "latest_build_finished_at": None,
            "first_deployed_to_production_at": None,
            "pipeline": pipeline,
            "head_pipeline": pipeline,
            "diff_refs": diff_refs(record),
            "merge_error": record.merge_error,
            "first_contribution": False,
            "user": {"can_merge": can_merge},
            "overflow": False,
        }
    )
    if rebase:
        out["rebase_in_progress"] = record.rebase_in_progress
    if diverged:
        out["diverged_commits_count"] = gitops.diverged_count(repo, record.start_sha, record.sha)
    return out


def subscribed(record: MergeRequest, caller_id: int | None) -> bool:
    if caller_id is None or caller_id in record.unsubscriber_ids:
        return False
    return caller_id in record.subscriber_ids or caller_id in (
        record.author_id,
        *record.assignee_ids,
    )


def diff_refs(record: MergeRequest) -> dict[str, str | None] | None:
    if record.sha is None:
        return None
    return {"base_sha": record.base_sha, "head_sha": record.sha, "start_sha": record.start_sha}


__all__ = ["commit_view", "diff_view"]
