"""Draft note records, indexed by ``(merge request, author)`` in id order: an author's
drafts on one merge request are one index partition (what lists and publishing read)."""

from __future__ import annotations

from typing import Any

import attrs

from fakeservice.core.store import Selection, Store, Table

TABLE = "draft_notes"


@attrs.define(slots=True)
class DraftNote:
    id: int
    merge_request_id: int
    author_id: int
    note: str
    commit_id: str | None = None
    discussion_id: str | None = None  # the thread it answers (``in_reply_to_discussion_id``)
    resolve_discussion: bool = False
    position: dict[str, Any] | None = None  # a checked diff position


def drafts(store: Store) -> Table[DraftNote]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    store.table(TABLE).add_sorted("owner", lambda r: (r.merge_request_id, r.author_id))


def add(store: Store, **fields: Any) -> DraftNote:
    return drafts(store).insert(DraftNote(id=store.next_id(TABLE), **fields))


def of_author(store: Store, merge_request_id: int, author_id: int) -> Selection[DraftNote]:
    """One author's drafts on one merge request, oldest first."""
    return drafts(store).select("owner", [(merge_request_id, author_id)])


def find(store: Store, merge_request_id: int, author_id: int, draft_id: int) -> DraftNote | None:
    """The draft ``draft_id`` if it is the author's, on that merge request."""
    found = drafts(store).get(draft_id)
    if found is None or (found.merge_request_id, found.author_id) != (merge_request_id, author_id):
        return None
    return found
