"""The ``approver_ids``, ``approved_by_ids`` and ``approved_by_usernames`` filters of merge
request lists.

``approver_ids`` matches the users the merge request's approval rules list by name
(``None``: no such user, ``Any``: at least one; ids: all of them). The rules belong to the
approvals area, which answers through :data:`MR_APPROVERS` listeners, so this module does
not import it. ``approved_by_*`` match who approved (``None``/``Any`` likewise).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fakeservice.core.events import listeners
from fakeservice.core.store import Store, as_id
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.users.models import find_by_username

# listener(store, record) -> ids of the users its approval rules name
MR_APPROVERS = "merge_request.approvers"
Approvers = Callable[[Store, MergeRequest], list[int]]
Predicate = Callable[[MergeRequest], bool]


def _match(
    values: Iterable[Any], of: Callable[[MergeRequest], set[int]], ids: set[int]
) -> Predicate:
    lowered = [str(v).strip().lower() for v in values]
    if lowered == ["none"]:
        return lambda r: not of(r)
    if lowered == ["any"]:
        return lambda r: bool(of(r))
    return lambda r: bool(ids) and ids <= of(r)


def _ids(values: Iterable[Any]) -> set[int]:
    return {i for v in values if (i := as_id(str(v).strip())) is not None}


def approver_predicate(store: Store, values: list[Any]) -> Predicate:
    sources = listeners(store, MR_APPROVERS)

    def named(record: MergeRequest) -> set[int]:
        return {user_id for source in sources for user_id in source(store, record)}

    return _match(values, named, _ids(values))


def approved_by_predicate(store: Store, values: list[Any], *, usernames: bool) -> Predicate:
    if usernames:
        found = (find_by_username(store, str(v).strip()) for v in values)
        ids = {u.id for u in found if u is not None}
        if len(ids) < len([v for v in values if str(v).strip().lower() not in ("none", "any")]):
            return lambda r: False  # an unknown username approves nothing
    else:
        ids = _ids(values)
    return _match(values, lambda r: set(r.approved_by), ids)
