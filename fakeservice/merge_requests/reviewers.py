"""``GET /projects/:id/merge_requests/:iid/reviewers``: each reviewer of a merge request
with ``state`` and ``created_at`` (when the review was requested).

Requests are recorded in a table keyed by ``(merge request, user)`` from the merge request
events: reviewers named on creation (``MR_EVENT`` ``created``) and reviewers added by an
update (``ISSUABLE_CHANGED`` with ``reviewer_ids``); a removed reviewer's request goes. A
reviewer who approved is ``approved``, any other ``unreviewed``.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.core.clock import iso
from fakeservice.core.store import Store, Table
from fakeservice.issues.events import ISSUABLE_CHANGED
from fakeservice.merge_requests import access, operations
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.merge_requests.router import api
from fakeservice.merge_requests.routes import IID, ONE, PROJECT_ID
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context
from fakeservice.web.routing import REQUIRED

if TYPE_CHECKING:
    from fakeservice.composition import Composition
    from fakeservice.users.models import User

TABLE = "merge_request_reviewers"


@attrs.define(slots=True)
class ReviewRequest:
    id: int
    merge_request_id: int
    user_id: int
    created_at: dt.datetime


def requests(store: Store) -> Table[ReviewRequest]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    store.table(TABLE).add_unique("pair", lambda r: (r.merge_request_id, r.user_id))


def _sync(store: Store, record: MergeRequest, now: dt.datetime) -> None:
    """Record a request for each new reviewer; forget those no longer reviewers."""
    table = requests(store)
    for user_id in record.reviewer_ids:
        if table.by("pair", (record.id, user_id)) is None:
            table.insert(ReviewRequest(store.next_id(TABLE), record.id, user_id, now))


def _forget(store: Store, record: MergeRequest, before: list[int]) -> None:
    table = requests(store)
    for user_id in before:
        found = table.by("pair", (record.id, user_id))
        if found is not None and user_id not in record.reviewer_ids:
            table.delete(found)


def _created(
    store: Store, record: MergeRequest, event: str, user: User | None, now: dt.datetime
) -> None:
    if event == "created":
        _sync(store, record, now)


def _changed(
    store: Store, kind: str, record: Any, before: dict[str, Any], user: Any, now: dt.datetime
) -> None:
    if kind == "MergeRequest" and "reviewer_ids" in before:
        _forget(store, record, before["reviewer_ids"])
        _sync(store, record, now)


def register(setup: Composition) -> None:
    """The table and the two reactions that record review requests."""
    setup.tables(install)
    setup.listen(operations.MR_EVENT, _created)
    setup.listen(ISSUABLE_CHANGED, _changed)


@api.get(ONE + "/reviewers", params=(PROJECT_ID, IID), auth=REQUIRED, paginated=True)
def list_merge_request_reviewers(ctx: Context) -> Any:
    """The merge request's reviewers in the order they were named."""
    _, record = access.merge_request(ctx)
    table = users(ctx.store)
    found = [table.get(user_id) for user_id in record.reviewer_ids]

    def render(user: Any) -> dict[str, Any]:
        request = requests(ctx.store).by("pair", (record.id, user.id))
        return {
            "user": user_ref(user, ctx.base_url),
            "state": "approved" if user.id in record.approved_by else "unreviewed",
            "created_at": iso(request.created_at if request else record.created_at),
        }

    return ctx.paginate_list([user for user in found if user is not None], render)
