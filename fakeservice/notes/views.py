"""JSON shapes of notes (seed 001 §2.4), discussions and award emoji."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.notes.awards import AwardEmoji
from fakeservice.notes.models import Discussion, Note, of_discussion, resolvable
from fakeservice.users.models import users
from fakeservice.users.views import note_author, user_ref


def note_view(store: Store, note: Note, base_url: str) -> dict[str, Any]:
    author = users(store).get(note.author_id)
    out: dict[str, Any] = {
        "id": note.id,
        "type": note.type,
        "body": note.body,
        "attachment": None,
        "author": note_author(author, base_url) if author is not None else None,
        "created_at": iso(note.created_at),
        "updated_at": iso(note.updated_at),
        "system": note.system,
        "noteable_id": note.noteable_id,
        "noteable_type": note.noteable_type,
        "project_id": note.project_id,
    }
    if note.noteable_type == "Commit":
        out["noteable_id"] = None
        out["commit_id"] = note.commit_id
    if note.type == "DiffNote":
        out["position"] = note.position
    out["resolvable"] = resolvable(note)
    if out["resolvable"]:
        resolver = users(store).get(note.resolved_by_id)
        out["resolved"] = note.resolved_at is not None
        out["resolved_by"] = user_ref(resolver, base_url) if resolver is not None else None
        out["resolved_at"] = iso(note.resolved_at)
    out.update(
        {
            "confidential": note.confidential,
            "internal": note.confidential,
            "noteable_iid": note.noteable_iid,
            "commands_changes": {},
        }
    )
    return out


def discussion_view(
    store: Store, thread: Discussion, base_url: str, shown: Callable[[Note], bool]
) -> dict[str, Any]:
    """A thread with the notes the caller may see, oldest first."""
    return {
        "id": thread.sha,
        "individual_note": thread.individual,
        "notes": [
            note_view(store, note, base_url)
            for note in of_discussion(store, thread.sha)
            if shown(note)
        ],
    }


def award_view(store: Store, record: AwardEmoji, base_url: str) -> dict[str, Any]:
    return {
        "id": record.id,
        "name": record.name,
        "user": user_ref(users(store).get(record.user_id), base_url),
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
        "awardable_id": record.awardable_id,
        "awardable_type": record.awardable_type,
    }
