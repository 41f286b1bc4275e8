"""Note records and the operations on them.

Notes belong to a noteable named by ``(noteable_type, noteable_id)`` (the noteable's
global id); ``system`` notes are written by the service when something changes. A body
that is only an award emoji (``:thumbsup:``, or the ``/award :thumbsup:`` quick action)
awards the emoji instead of making a note (:mod:`.awards`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any

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
    discussion_id: str = ""  # the 40-hex id of its thread
    type: str | None = None  # None (an individual note), DiscussionNote, DiffNote
    position: dict[str, Any] | None = None  # where a DiffNote sits in the diff
    resolved_by_id: int | None = None
    resolved_at: dt.datetime | None = None
    commit_id: str | None = None  # the commit of a note on a commit


@attrs.define(slots=True)
class Discussion:
    """A thread: ``sha`` is the id clients see (40 hex digits from the ``discussions``
    sequence); ``individual`` while it is one note made through the notes API."""

    id: int
    sha: str
    noteable_type: str
    noteable_id: int
    created_at: dt.datetime
    individual: bool = True


def notes(store: Store) -> Table[Note]:
    return store.tables["notes"]


def discussions(store: Store) -> Table[Discussion]:
    return store.tables["discussions"]


def resolvable(note: Note) -> bool:
    """Thread notes on merge requests can be resolved (system and individual notes not)."""
    return note.noteable_type == "MergeRequest" and note.type is not None and not note.system


def install(store: Store) -> None:
    threads = store.table("discussions")
    threads.add_unique("sha", lambda r: r.sha)
    threads.add_sorted(
        "noteable", lambda r: (r.noteable_type, r.noteable_id), lambda r: (r.created_at,)
    )
    table = store.table("notes")
    table.add_sorted("discussion", lambda r: r.discussion_id or None, lambda r: (r.created_at,))
    table.add_sorted(
        "commit_notes", lambda r: r.project_id if r.noteable_type == "Commit" else None
    )
    table.add_sorted(
        "unresolved",
        lambda r: (
            (r.noteable_type, r.noteable_id) if resolvable(r) and r.resolved_at is None else None
        ),
    )
    for order in ("created_at", "updated_at"):
        key = (lambda attr: lambda r: (getattr(r, attr),))(order)
        table.add_sorted(f"noteable_{order}", lambda r: (r.noteable_type, r.noteable_id), key)
    table.add_sorted("user_notes", lambda r: None if r.system else (r.noteable_type, r.noteable_id))


def of_noteable(
    store: Store, kind: str, noteable_id: int, order: str, reverse: bool
) -> Selection[Note]:
    return notes(store).select(f"noteable_{order}", [(kind, noteable_id)], reverse=reverse)


def of_discussion(store: Store, sha: str) -> Selection[Note]:
    """A thread's notes, oldest first."""
    return notes(store).select("discussion", [sha])


def discussions_of(store: Store, kind: str, noteable_id: int) -> Selection[Discussion]:
    """A noteable's threads, oldest first."""
    return discussions(store).select("noteable", [(kind, noteable_id)])


def unresolved_count(store: Store, kind: str, noteable_id: int) -> int:
    return notes(store).select("unresolved", [(kind, noteable_id)]).count()


def open_discussion(
    store: Store, kind: str, noteable_id: int, now: dt.datetime, *, individual: bool = True
) -> Discussion:
    number = store.next_id("discussions")
    sha = hashlib.sha1(f"discussion:{number}".encode()).hexdigest()
    return discussions(store).insert(Discussion(number, sha, kind, noteable_id, now, individual))


def resolve(store: Store, found: list[Note], user_id: int | None, now: dt.datetime) -> None:
    """Resolve the notes as ``user_id`` (None: unresolve them)."""
    for note in found:
        notes(store).update(
            note, resolved_by_id=user_id, resolved_at=now if user_id is not None else None
        )


def delete(store: Store, note: Note) -> None:
    """Delete a note (and its thread with its last note)."""
    notes(store).delete(note)
    if note.discussion_id and of_discussion(store, note.discussion_id).count() == 0:
        thread = discussions(store).by("sha", note.discussion_id)
        if thread is not None:
            discussions(store).delete(thread)


def on_commits(store: Store, project_id: int) -> list[Note]:
    """The notes on the project's commits."""
    return list(notes(store).select("commit_notes", [project_id]))


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
    discussion: Discussion | None = None,
    note_type: str | None = None,
    position: dict[str, Any] | None = None,
    commit_id: str | None = None,
) -> Note:
    """A note, in ``discussion`` or in a new individual-note discussion of its own."""
    thread = discussion or open_discussion(store, kind, noteable_id, created_at or now)
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
        discussion_id=thread.sha,
        type=note_type,
        position=position,
        commit_id=commit_id,
    )
    return announce(store, "Note", notes(store).insert(note), "create", author_id, now)
