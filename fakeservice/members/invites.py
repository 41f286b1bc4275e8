"""Invitation records: an email address invited to a project or a group (namespace) at a
role, with an optional expiry, until it is accepted or deleted.

One invitation per address and source (``source_email``, the address folded to lower
case); a source's invitations are listed from the ``source`` index, oldest first.
"""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.store import Store, Table


@attrs.define(slots=True)
class Invitation:
    id: int
    source_kind: str  # "project" or "namespace", as members
    source_id: int
    email: str
    access_level: int
    created_at: dt.datetime
    expires_at: dt.date | None = None
    created_by_id: int | None = None


def invitations(store: Store) -> Table[Invitation]:
    return store.tables["invitations"]


def install(store: Store) -> None:
    table = store.table("invitations")
    table.add_unique("source_email", lambda i: (i.source_kind, i.source_id, i.email.lower()))
    table.add_sorted("source", lambda i: (i.source_kind, i.source_id))


def find_invitation(store: Store, kind: str, source_id: int, email: str) -> Invitation | None:
    return invitations(store).by("source_email", (kind, source_id, email.strip().lower()))


def add_invitation(
    store: Store,
    now: dt.datetime,
    *,
    kind: str,
    source_id: int,
    email: str,
    access_level: int,
    expires_at: dt.date | None = None,
    created_by_id: int | None = None,
) -> Invitation:
    invitation = Invitation(
        id=store.next_id("invitations"),
        source_kind=kind,
        source_id=source_id,
        email=email.strip(),
        access_level=access_level,
        created_at=now,
        expires_at=expires_at,
        created_by_id=created_by_id,
    )
    invitations(store).insert(invitation)
    return invitation
