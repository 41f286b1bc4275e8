"""Issue link records and their indexes.

A link is stored once, from its source to its target, as ``relates_to`` or ``blocks``
(``is_blocked_by`` is stored as the reverse ``blocks``, as the service does). Indexes:
``pair`` (the two issue ids, unordered) so that a second link between the same issues is
found at once, and ``issue`` (each of the two issue ids, by link id) for an issue's links
in either direction.
"""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.store import Selection, Store, Table

TABLE = "issue_links"
LINK_TYPES = ("relates_to", "blocks", "is_blocked_by")


@attrs.define(slots=True)
class IssueLink:
    id: int
    source_id: int
    target_id: int
    link_type: str
    created_at: dt.datetime
    updated_at: dt.datetime

    def type_from(self, issue_id: int) -> str:
        """The link's type as seen from ``issue_id`` (the target of ``blocks`` is blocked)."""
        if self.link_type == "blocks" and issue_id == self.target_id:
            return "is_blocked_by"
        return self.link_type

    def other(self, issue_id: int) -> int:
        return self.target_id if issue_id == self.source_id else self.source_id


def issue_links(store: Store) -> Table[IssueLink]:
    return store.tables[TABLE]


def _pair(source_id: int, target_id: int) -> tuple[int, int]:
    return (min(source_id, target_id), max(source_id, target_id))


def install(store: Store) -> None:
    table = store.table(TABLE)
    table.add_unique("pair", lambda r: _pair(r.source_id, r.target_id))
    table.add_sorted("issue", lambda r: (r.source_id, r.target_id), multi=True)


def between(store: Store, one_id: int, other_id: int) -> IssueLink | None:
    return issue_links(store).by("pair", _pair(one_id, other_id))


def of_issue(store: Store, issue_id: int) -> Selection[IssueLink]:
    """The links of an issue in either direction, oldest first."""
    return issue_links(store).select("issue", [issue_id])


def create(
    store: Store, source_id: int, target_id: int, link_type: str, now: dt.datetime
) -> IssueLink:
    """Store a link (validated already); ``is_blocked_by`` becomes the reverse ``blocks``."""
    if link_type == "is_blocked_by":
        source_id, target_id, link_type = target_id, source_id, "blocks"
    record = IssueLink(store.next_id(TABLE), source_id, target_id, link_type, now, now)
    return issue_links(store).insert(record)


def delete(store: Store, record: IssueLink) -> None:
    issue_links(store).delete(record)
