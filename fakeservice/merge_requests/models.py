"""Merge request records, their indexes and the plain operations on them.

Indexes: per project and globally by ``created_at`` and ``updated_at`` (and per
``(project, label)`` for label filters), per project by ``(source_branch, state)`` so a
push finds its open merge requests, and ``due`` (ordered by due time) for the checks,
rebases and merges waiting on the service clock.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import attrs

from fakeservice.core.store import Selection, Store, Table
from fakeservice.issues import listing
from fakeservice.issues.models import field_errors

__all__ = ["field_errors"]

DRAFT_PREFIX = re.compile(
    r"^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|\[wip\]|wip:|wip\s-\s)\s*", re.I
)


@attrs.define(slots=True)
class MergeRequest:
    id: int
    iid: int
    project_id: int
    source_project_id: int
    title: str
    description: str | None
    author_id: int
    source_branch: str
    target_branch: str
    created_at: dt.datetime
    updated_at: dt.datetime
    sha: str | None = None
    base_sha: str | None = None
    start_sha: str | None = None
    state: str = "opened"
    merge_status: str = "unchecked"
    assignee_ids: list[int] = attrs.field(factory=list)
    reviewer_ids: list[int] = attrs.field(factory=list)
    label_ids: list[int] = attrs.field(factory=list)
    milestone_id: int | None = None
    merged_at: dt.datetime | None = None
    merged_by_id: int | None = None
    closed_at: dt.datetime | None = None
    closed_by_id: int | None = None
    merge_error: str | None = None
    merge_commit_sha: str | None = None
    squash_commit_sha: str | None = None
    squash: bool = False
    should_remove_source_branch: bool | None = None
    force_remove_source_branch: bool = False
    allow_collaboration: bool = False
    merge_when_pipeline_succeeds: bool = False
    merge_user_id: int | None = None
    merge_params: dict[str, Any] = attrs.field(factory=dict)
    discussion_locked: bool | None = None
    user_notes_count: int = 0
    subscriber_ids: list[int] = attrs.field(factory=list)
    unsubscriber_ids: list[int] = attrs.field(factory=list)
    todo_user_ids: list[int] = attrs.field(factory=list)
    approvals_before_merge: int | None = None
    approved_by: list[int] = attrs.field(factory=list)
    head_pipeline_id: int | None = None
    has_conflicts: bool = False
    rebase_in_progress: bool = False
    due_at: dt.datetime | None = None  # when the waiting check / rebase completes
    due_kind: str | None = None  # "check" or "rebase"

    @property
    def draft(self) -> bool:
        return bool(DRAFT_PREFIX.match(self.title))


def merge_requests(store: Store) -> Table[MergeRequest]:
    return store.tables["merge_requests"]


def install(store: Store) -> None:
    table = store.table("merge_requests")
    table.add_unique("project_iid", lambda r: (r.project_id, r.iid))
    listing.install_indexes(table)
    table.add_sorted("source", lambda r: (r.source_project_id, r.source_branch, r.state))
    table.add_sorted("target", lambda r: (r.project_id, r.target_branch, r.state))
    table.add_sorted(
        "due", lambda r: "due" if r.due_at is not None else None, lambda r: (r.due_at,)
    )
    table.add_sorted("mwps", lambda r: "waiting" if r.merge_when_pipeline_succeeds else None)


def find(store: Store, project_id: int, iid: int) -> MergeRequest | None:
    return merge_requests(store).by("project_iid", (project_id, iid))


def open_from(store: Store, project_id: int, branch: str) -> list[MergeRequest]:
    """Open merge requests whose source is ``branch`` of the project."""
    return list(merge_requests(store).select("source", [(project_id, branch, "opened")]))


def open_into(store: Store, project_id: int, branch: str) -> list[MergeRequest]:
    """Open merge requests that target ``branch`` of the project."""
    return list(merge_requests(store).select("target", [(project_id, branch, "opened")]))


def due(store: Store) -> Selection[MergeRequest]:
    return merge_requests(store).select("due", ["due"])


def waiting_for_pipelines(store: Store) -> list[MergeRequest]:
    return list(merge_requests(store).select("mwps", ["waiting"]))


def count_with_label(store: Store, label_id: int, state: str) -> int:
    return merge_requests(store).select("label_state", [(label_id, state)]).count()


def with_draft(title: str, draft: bool) -> str:
    """``title`` with the ``Draft:`` prefix added or removed."""
    bare = DRAFT_PREFIX.sub("", title, count=1) if DRAFT_PREFIX.match(title) else title
    return f"Draft: {bare}" if draft else bare


def change(
    store: Store, record: MergeRequest, now: dt.datetime | None, **changes: Any
) -> MergeRequest:
    """Apply changes (validated already); ``now`` touches ``updated_at``."""
    if now is not None:
        changes["updated_at"] = now
    return merge_requests(store).update(record, **changes)
