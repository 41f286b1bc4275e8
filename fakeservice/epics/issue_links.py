"""Issues assigned to epics (the epic issues API, paid tier): one link per issue, so
assigning an issue that sits in another epic moves it (the link keeps its id).

A link's ``relative_position`` orders an epic's issues (then its id). A new assignment
goes first, one ideal distance before the epic's first issue (``0`` in an empty epic); a
move between two neighbours takes the midpoint, and when no integer is left between them
the epic's links are spread out again (in their order) before the move.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from fakeservice.core.errors import ApiError, Forbidden, NotFound
from fakeservice.core.store import Selection, Store, Table

START_POSITION = 0
IDEAL_DISTANCE = 2**30 // 1000
ALREADY_ASSIGNED = "Issue(s) already assigned"
NO_MATCHING_ISSUE = "No matching issue found. Make sure that you are adding a valid issue URL."
NOT_MOVED = "Issue could not be moved!"


@attrs.define(slots=True)
class EpicIssue:
    id: int
    epic_id: int
    issue_id: int
    relative_position: int
    created_at: dt.datetime
    updated_at: dt.datetime


def links(store: Store) -> Table[EpicIssue]:
    return store.tables["epic_issues"]


def install(store: Store) -> None:
    table = store.table("epic_issues")
    table.add_unique("issue", lambda link: link.issue_id)
    table.add_sorted("epic", lambda link: link.epic_id, lambda link: (link.relative_position,))


def of_epic(store: Store, epic_id: int) -> Selection[EpicIssue]:
    """The epic's links in order (position, then id)."""
    return links(store).select("epic", [epic_id])


def of_issue(store: Store, issue_id: int) -> EpicIssue | None:
    """The link that puts the issue in an epic, if any."""
    return links(store).by("issue", issue_id)


def in_epic(store: Store, epic_id: int, link_id: int) -> EpicIssue | None:
    link = links(store).get(link_id)
    return link if link is not None and link.epic_id == epic_id else None


def _first_position(store: Store, epic_id: int) -> int:
    first = next(iter(of_epic(store, epic_id)), None)
    return START_POSITION if first is None else first.relative_position - IDEAL_DISTANCE


def assign(store: Store, epic_id: int, issue_id: int, now: dt.datetime) -> EpicIssue:
    """Put the issue first in the epic (moving it from another epic); 409 when it is
    already in this one."""
    current = of_issue(store, issue_id)
    if current is not None and current.epic_id == epic_id:
        raise ApiError({"message": ALREADY_ASSIGNED}, status=409)
    position = _first_position(store, epic_id)
    if current is not None:
        return links(store).update(
            current, epic_id=epic_id, relative_position=position, updated_at=now
        )
    link = EpicIssue(
        id=store.next_id("epic_issues"),
        epic_id=epic_id,
        issue_id=issue_id,
        relative_position=position,
        created_at=now,
        updated_at=now,
    )
    return links(store).insert(link)


def remove(store: Store, link: EpicIssue) -> None:
    links(store).delete(link)


def forget_issue(store: Store, issue: Any) -> None:
    """Drop the issue's link (the issue is gone: the issues area's ``ISSUE_DELETED``)."""
    link = of_issue(store, issue.id)
    if link is not None:
        links(store).delete(link)


def forget_epic(store: Store, epic_id: int) -> None:
    """Drop every link of the epic (the epic is gone)."""
    table = links(store)
    for link in list(of_epic(store, epic_id)):
        table.delete(link)


def _spread(store: Store, epic_id: int) -> None:
    table = links(store)
    for index, link in enumerate(list(of_epic(store, epic_id))):
        table.update(link, relative_position=START_POSITION + index * IDEAL_DISTANCE)


def _slot(
    store: Store, link: EpicIssue, before: EpicIssue | None, after: EpicIssue | None
) -> int | None:
    """The position between ``before`` and ``after`` (one may be None: right after
    ``before``, or right before ``after``), or None when no integer is free."""
    if before is None or after is None:
        order = [other for other in of_epic(store, link.epic_id) if other.id != link.id]
        ids = [other.id for other in order]
        if after is None:
            assert before is not None
            index = ids.index(before.id) + 1
            after = order[index] if index < len(order) else None
        else:
            index = ids.index(after.id) - 1
            before = order[index] if index >= 0 else None
    if before is None:
        assert after is not None
        return after.relative_position - IDEAL_DISTANCE
    if after is None:
        return before.relative_position + IDEAL_DISTANCE
    low, high = sorted((before.relative_position, after.relative_position))
    return None if high - low < 2 else (low + high) // 2


def move(store: Store, link: EpicIssue, before: EpicIssue | None, after: EpicIssue | None) -> None:
    """Place ``link`` after ``before`` and before ``after`` (links of its epic other than
    itself, or None); 400 ``Issue could not be moved!`` when neither is one. The link's
    ``updated_at`` stays (a reorder is no edit)."""
    before = None if before is link else before
    after = None if after is link else after
    if before is None and after is None:
        raise ApiError({"message": {"error": NOT_MOVED}}, status=400)
    position = _slot(store, link, before, after)
    if position is None:
        _spread(store, link.epic_id)
        position = _slot(store, link, before, after)
        assert position is not None
    links(store).update(link, relative_position=position)


def link_of_epic(store: Store, epic_id: int, link_id: int) -> EpicIssue:
    """The link ``link_id``: 404 when unknown, 403 when it is another epic's."""
    link = links(store).get(link_id)
    if link is None:
        raise NotFound()
    if link.epic_id != epic_id:
        raise Forbidden()
    return link
