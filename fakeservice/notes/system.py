"""System notes (``system: true``) the service writes when something changes (seed 001
§6): ``added N commits`` on a push to a merge request's source branch, ``mentioned in
merge request !N`` on the issues a new merge request closes, approvals, and edits of
issues and merge requests (title, description, draft, assignees, reviewers). State,
label and milestone changes are resource events, not notes, as on the real service."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from fakeservice.core.store import Store
from fakeservice.issues import events
from fakeservice.merge_requests import operations
from fakeservice.merge_requests.models import DRAFT_PREFIX, MergeRequest
from fakeservice.notes import models
from fakeservice.repository.models import RefChange
from fakeservice.users.models import users

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def write(
    store: Store,
    kind: str,
    record: Any,
    project_id: int,
    author_id: int,
    body: str,
    now: dt.datetime,
) -> None:
    models.create(
        store,
        kind=kind,
        noteable_id=record.id,
        noteable_iid=getattr(record, "iid", None),
        project_id=project_id,
        author_id=author_id,
        body=body,
        now=now,
        system=True,
    )


def _pushed(
    store: Store, project: Any, record: MergeRequest, change: RefChange, added: list[str]
) -> None:
    if not added:
        return
    author = change.user.id if change.user is not None else record.author_id
    lines = [f"* {sha[:8]} - {change.repo.get_commit(sha).title}" for sha in added]
    noun = "commit" if len(added) == 1 else "commits"
    body = f"added {len(added)} {noun}\n\n" + "\n".join(lines)
    write(store, "MergeRequest", record, project.id, author, body, change.now)


def _event(store: Store, record: MergeRequest, event: str, user: Any, now: dt.datetime) -> None:
    if event != "created":
        return
    project = operations.project_of(store, record)
    for issue in operations.closes_issues(store, record):
        body = f"mentioned in merge request !{record.iid}"
        write(store, "Issue", issue, project.id, user.id if user else record.author_id, body, now)


def _participants(store: Store, record: MergeRequest) -> list[int]:
    return models.author_ids(store, "MergeRequest", record.id)


def approval_note(
    store: Store, record: MergeRequest, user_id: int, approved: bool, now: dt.datetime
) -> None:
    body = "approved this merge request" if approved else "unapproved this merge request"
    write(store, "MergeRequest", record, record.project_id, user_id, body, now)


def _names(store: Store, ids: list[int]) -> str:
    table = users(store)
    names = [f"@{u.username}" for u in (table.get(i) for i in ids) if u is not None]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _people(store: Store, old: list[int], new: list[int], added: str, removed: str) -> str | None:
    gained = [i for i in new if i not in old]
    lost = [i for i in old if i not in new]
    parts = []
    if gained:
        parts.append(f"{added} {_names(store, gained)}")
    if lost:
        parts.append(f"{removed} {_names(store, lost)}")
    return " and ".join(parts) or None


def change_bodies(store: Store, kind: str, record: Any, before: dict[str, Any]) -> list[str]:
    """The system notes the real service writes for these changes, in its order."""
    bodies: list[str] = []
    if "title" in before:
        old_draft = bool(DRAFT_PREFIX.match(before["title"] or ""))
        new_draft = bool(DRAFT_PREFIX.match(record.title))
        if kind == "MergeRequest" and old_draft != new_draft:
            bodies.append(f"marked this merge request as **{'draft' if new_draft else 'ready'}**")
        else:
            bodies.append(f"changed title from **{before['title']}** to **{record.title}**")
    if "description" in before:
        bodies.append("changed the description")
    if "assignee_ids" in before:
        found = _people(
            store, before["assignee_ids"], record.assignee_ids, "assigned to", "unassigned"
        )
        bodies += [found] if found else []
    if "reviewer_ids" in before:
        found = _people(
            store,
            before["reviewer_ids"],
            record.reviewer_ids,
            "requested review from",
            "removed review request for",
        )
        bodies += [found] if found else []
    return bodies


def _changed(
    store: Store, kind: str, record: Any, before: dict[str, Any], user: Any, now: dt.datetime
) -> None:
    for body in change_bodies(store, kind, record, before):
        write(store, kind, record, record.project_id, user.id, body, now)


def register(setup: Composition) -> None:
    """Listen to the merge request and issuable events that write system notes."""
    setup.listen(operations.MR_PUSHED, _pushed)
    setup.listen(events.ISSUABLE_CHANGED, _changed)
    setup.listen(operations.MR_EVENT, _event)
    setup.listen(operations.MR_PARTICIPANTS, _participants)
