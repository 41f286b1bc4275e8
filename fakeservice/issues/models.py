"""Issue records, their state machine and the operations on them.

``iid`` counts per project. Labels are kept as label ids (a rename shows everywhere) and
indexed per ``(project, label)`` so that a label filter walks only labelled rows.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.events import announce, listeners
from fakeservice.core.machine import Machine
from fakeservice.core.store import Store, Table
from fakeservice.issues import listing

TITLE_MAX = 255
DESCRIPTION_MAX = 1_048_576


def _closed(record: Any, old: str, event: str, context: dict[str, Any]) -> None:
    record.closed_at = context["now"]
    record.closed_by_id = context.get("by")


def _reopened(record: Any, old: str, event: str, context: dict[str, Any]) -> None:
    record.closed_at = None
    record.closed_by_id = None


MACHINE = Machine(
    "issue",
    ("opened", "closed"),
    (("close", "opened", "closed"), ("reopen", "closed", "opened")),
    attribute="state",
    effects={"closed": [_closed], "opened": [_reopened]},
)


@attrs.define(slots=True)
class Issue:
    id: int
    iid: int
    project_id: int
    title: str
    description: str | None
    author_id: int
    created_at: dt.datetime
    updated_at: dt.datetime
    state: str = "opened"
    assignee_ids: list[int] = attrs.field(factory=list)
    label_ids: list[int] = attrs.field(factory=list)
    milestone_id: int | None = None
    confidential: bool = False
    discussion_locked: bool | None = None
    due_date: dt.date | None = None
    closed_at: dt.datetime | None = None
    closed_by_id: int | None = None
    user_notes_count: int = 0
    subscriber_ids: list[int] = attrs.field(factory=list)
    weight: int | None = None
    issue_type: str = "issue"


def issues(store: Store) -> Table[Issue]:
    return store.tables["issues"]


def install(store: Store) -> None:
    table = store.table("issues")
    table.add_unique("project_iid", lambda r: (r.project_id, r.iid))
    listing.install_indexes(table)


def find(store: Store, project_id: int, iid: int) -> Issue | None:
    return issues(store).by("project_iid", (project_id, iid))


def field_errors(title: Any, description: Any) -> dict[str, list[str]]:
    """Model messages for a title and description (validated before any write)."""
    errors: dict[str, list[str]] = {}
    if not isinstance(title, str) or not title.strip():
        errors["title"] = ["can't be blank"]
    elif len(title) > TITLE_MAX:
        errors["title"] = [f"is too long (maximum is {TITLE_MAX} characters)"]
    if isinstance(description, str) and len(description) > DESCRIPTION_MAX:
        errors["description"] = [f"is too long (maximum is {DESCRIPTION_MAX} characters)"]
    return errors


def create(
    store: Store,
    project_id: int,
    author_id: int,
    now: dt.datetime,
    *,
    title: str,
    iid: int | None = None,
    **fields: Any,
) -> Issue:
    """A new issue (fields validated by the caller with :func:`field_errors`)."""
    errors = field_errors(title, fields.get("description"))
    if errors:
        raise ValidationFailed(errors)
    if iid is None:
        iid = store.next_iid("issues", project_id)
    else:
        store.bump_iid("issues", project_id, iid)
    record = Issue(
        id=store.next_id("issues"),
        iid=iid,
        project_id=project_id,
        title=title,
        author_id=author_id,
        created_at=fields.pop("created_at", None) or now,
        updated_at=now,
        description=fields.pop("description", None),
        **fields,
    )
    return announce(store, "Issue", issues(store).insert(record), "open", author_id, now)


def change(store: Store, record: Issue, now: dt.datetime, **changes: Any) -> Issue:
    """Apply attribute changes (already validated) and touch ``updated_at``."""
    return issues(store).update(record, updated_at=now, **changes)


def transition(store: Store, record: Issue, event: str, now: dt.datetime, by: int | None) -> bool:
    """Close or reopen; False when the event does not apply in the current state."""
    if not MACHINE.can(record, event):
        return False
    MACHINE.fire(record, event, now=now, by=by)
    announce(store, "Issue", issues(store).update(record, updated_at=now), event, by, now)
    return True


# ``listener(store, issue)``: an issue was deleted (epics drop its assignment).
ISSUE_DELETED = "issue.deleted"


def delete(store: Store, record: Issue) -> None:
    issues(store).delete(record)
    for listener in listeners(store, ISSUE_DELETED):
        listener(store, record)


def count_with_label(store: Store, label_id: int, state: str) -> int:
    """How many issues carry the label in ``state`` (from the index, no scan)."""
    return issues(store).select("label_state", [(label_id, state)]).count()
