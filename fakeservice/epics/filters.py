"""The list filters of ``GET /groups/:id/epics`` as one predicate over epics, and the
groups whose epics a list walks (the group, its readable descendants by default, its
readable ancestors on request)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from fakeservice.core.store import Store
from fakeservice.epics.models import Epic
from fakeservice.groups.models import Namespace, ancestors, descendants
from fakeservice.members.access import can_read_group

Predicate = Callable[[Epic], bool]


def list_groups(
    store: Store, user: Any, group: Namespace, params: Mapping[str, Any], now: dt.datetime
) -> list[Namespace]:
    found = [group]
    if params.get("include_descendant_groups", True):
        found += [g for g in descendants(store, group) if can_read_group(store, user, g, now)]
    if params.get("include_ancestor_groups"):
        found += [g for g in ancestors(store, group) if can_read_group(store, user, g, now)]
    return found


def _labels_check(names: list[str], negate: bool) -> Predicate:
    lowered = [n.lower() for n in names]
    if not negate and lowered == ["none"]:
        return lambda e: not e.labels
    if not negate and lowered == ["any"]:
        return lambda e: bool(e.labels)
    wanted = set(names)
    if negate:
        return lambda e: not wanted & set(e.labels)
    return lambda e: wanted <= set(e.labels)


def predicate(
    params: Mapping[str, Any],
    sees_confidential: Callable[[int], bool],
    reacted: Predicate | None = None,
) -> Predicate:
    """Every given filter, and confidential epics only where the caller may see them;
    ``reacted`` is the ``my_reaction_emoji`` filter."""
    checks: list[Predicate] = [lambda e: not e.confidential or sees_confidential(e.group_id)]
    state = params.get("state") or "all"
    if state != "all":
        checks.append(lambda e: e.state == state)
    if params.get("author_id") is not None:
        author = params["author_id"]
        checks.append(lambda e: e.author_id == author)
    if params.get("labels"):
        checks.append(_labels_check(params["labels"], negate=False))
    search = (params.get("search") or "").lower()
    if search:
        checks.append(
            lambda e: search in e.title.lower() or search in (e.description or "").lower()
        )
    for name, attr, after in (
        ("created_after", "created_at", True),
        ("created_before", "created_at", False),
        ("updated_after", "updated_at", True),
        ("updated_before", "updated_at", False),
    ):
        bound = params.get(name)
        if bound is not None:
            checks.append(_time_check(attr, bound, after))
    if reacted is not None:
        checks.append(reacted)
    negated = params.get("not") or {}
    if negated.get("author_id") is not None:
        not_author = negated["author_id"]
        checks.append(lambda e: e.author_id != not_author)
    if negated.get("labels"):
        checks.append(_labels_check(negated["labels"], negate=True))
    return lambda e: all(check(e) for check in checks)


def _time_check(attr: str, bound: dt.datetime, after: bool) -> Predicate:
    if after:
        return lambda e: getattr(e, attr) >= bound
    return lambda e: getattr(e, attr) <= bound
