"""Note records and the operations on them.

Notes belong to a noteable named by ``(noteable_type, noteable_id)`` (the noteable's
global id); ``system`` notes are written by the service when something changes. A body
that is only an award emoji (``:thumbsup:``, or the ``/award :thumbsup:`` quick action)
awards the emoji instead of making a note (:mod:`.awards`).
"""

from __future__ import annotations

import datetime as dt
import re

import attrs

from fakeservice.core.errors import BadRequest
from fakeservice.core.events import announce
from fakeservice.core.store import Selection, Store, Table

BODY_MAX = 1_000_000
EMOJI_ONLY = re.compile(r"^\s*(?:/award\s+)?:([a-z0-9_+-]+):\s*$")


@attrs.define(slots=True)
class Note:
    id: int
    noteable_type: str
    noteable_id: int
    noteable_iid: int | None
    project_id: int | None
    author_id: int
    body: str
    created_at: dt.datetime
    updated_at: dt.datetime
    system: bool = False
    confidential: bool = False


def notes(store: Store) -> Table[Note]:
    return store.tables["notes"]


def install(store: Store) -> None:
    table = store.table("notes")
    for order in ("created_at", "updated_at"):
        key = (lambda attr: lambda r: (getattr(r, attr),))(order)
        table.add_sorted(f"noteable_{order}", lambda r: (r.noteable_type, r.noteable_id), key)
    table.add_sorted("user_notes", lambda r: None if r.system else (r.noteable_type, r.noteable_id))


def of_noteable(
    store: Store, kind: str, noteable_id: int, order: str, reverse: bool
) -> Selection[Note]:
    return notes(store).select(f"noteable_{order}", [(kind, noteable_id)], reverse=reverse)


def user_notes_count(store: Store, kind: str, noteable_id: int) -> int:
    return notes(store).select("user_notes", [(kind, noteable_id)]).count()


def author_ids(store: Store, kind: str, noteable_id: int) -> list[int]:
    """Authors of user notes, in the order they first commented."""
    out: list[int] = []
    for note in notes(store).select("user_notes", [(kind, noteable_id)]):
        if note.author_id not in out:
            out.append(note.author_id)
    return out


def body_problem(body: str | None) -> str | None:
    """The model's complaint about a body (worded as the API reports it), or None."""
    if body is None or not body.strip():
        return 'Note {:note=>["can\'t be blank"]}'
    if len(body) > BODY_MAX:
        return f'Note {{:note=>["is too long (maximum is {BODY_MAX} characters)"]}}'
    return None


def check_body(body: str | None) -> str:
    problem = body_problem(body)
    if problem is not None:
        raise BadRequest(problem)
    assert body is not None
    return body


def create(
    store: Store,
    *,
    kind: str,
    noteable_id: int,
    noteable_iid: int | None,
    project_id: int | None,
    author_id: int,
    body: str,
    now: dt.datetime,
    created_at: dt.datetime | None = None,
    system: bool = False,
    confidential: bool = False,
) -> Note:
    note = Note(
        id=store.next_id("notes"),
        noteable_type=kind,
        noteable_id=noteable_id,
        noteable_iid=noteable_iid,
        project_id=project_id,
        author_id=author_id,
        body=body,
        created_at=created_at or now,
        updated_at=now,
        system=system,
        confidential=confidential,
    )
    return announce(store, "Note", notes(store).insert(note), "create", author_id, now)
