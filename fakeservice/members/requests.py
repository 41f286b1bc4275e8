"""Access request records: a signed-in user asking to join a project or a group
(namespace), kept until a Maintainer approves it (the user becomes a member) or denies
it, or the user withdraws it.

One request per user and source (``source_user``); a source's requests are listed from
the ``source`` index, oldest first.
"""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.store import Store, Table


@attrs.define(slots=True)
class AccessRequest:
    id: int
    source_kind: str  # "project" or "namespace", as members
    source_id: int
    user_id: int
    requested_at: dt.datetime


def access_requests(store: Store) -> Table[AccessRequest]:
    return store.tables["access_requests"]


def install(store: Store) -> None:
    table = store.table("access_requests")
    table.add_unique("source_user", lambda r: (r.source_kind, r.source_id, r.user_id))
    table.add_sorted("source", lambda r: (r.source_kind, r.source_id))


def find_request(store: Store, kind: str, source_id: int, user_id: int) -> AccessRequest | None:
    return access_requests(store).by("source_user", (kind, source_id, user_id))


def add_request(
    store: Store, now: dt.datetime, *, kind: str, source_id: int, user_id: int
) -> AccessRequest:
    request = AccessRequest(
        id=store.next_id("access_requests"),
        source_kind=kind,
        source_id=source_id,
        user_id=user_id,
        requested_at=now,
    )
    access_requests(store).insert(request)
    return request
