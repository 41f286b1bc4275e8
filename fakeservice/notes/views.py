"""JSON shapes of notes (seed 001 §2.4) and award emoji."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.notes.awards import AwardEmoji
from fakeservice.notes.models import Note
from fakeservice.users.models import users
from fakeservice.users.views import note_author, user_ref


def note_view(store: Store, note: Note, base_url: str) -> dict[str, Any]:
    author = users(store).get(note.author_id)
    return {
        "id": note.id,
        "type": None,
        "body": note.body,
        "attachment": None,
        "author": note_author(author, base_url) if author is not None else None,
        "created_at": iso(note.created_at),
        "updated_at": iso(note.updated_at),
        "system": note.system,
        "noteable_id": note.noteable_id,
        "noteable_type": note.noteable_type,
        "project_id": note.project_id,
        "resolvable": False,
        "confidential": note.confidential,
        "internal": note.confidential,
        "noteable_iid": note.noteable_iid,
        "commands_changes": {},
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
