"""Epic notes through the notes area: ``/groups/:id/epics/:epic_id/notes`` names the epic
by its global ``id`` (as python-gitlab's ``epic.notes`` does), single notes answer the
seed 001 §2.4 shape (with ``confidential``), notes are not backdated, and closing or
reopening an epic writes a system note."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import NotFound
from fakeservice.core.store import Store
from fakeservice.epics import models
from fakeservice.epics.access import epic_group, epic_role
from fakeservice.members.models import PLANNER, REPORTER
from fakeservice.notes import models as notes
from fakeservice.notes.registry import Noteable, Target
from fakeservice.notes.routes import register_noteable
from fakeservice.users.models import users
from fakeservice.users.views import note_author
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

KIND = "Epic"
STATE_NOTES = {"closed": "closed", "opened": "reopened"}


def _find(ctx: Context) -> Target:
    group = epic_group(ctx)
    epic = models.epics(ctx.store).get(ctx.params["epic_id"])
    if epic is None or epic.group_id != group.id:
        raise NotFound()
    role = epic_role(ctx, epic.group_id)
    if epic.confidential and role < PLANNER:
        raise NotFound()
    return Target(epic, None, False, role, models.epics, can_write=role >= REPORTER)


def _single(ctx: Context, target: Target, note: notes.Note) -> dict[str, Any]:
    author = users(ctx.store).get(note.author_id)
    return {
        "id": note.id,
        "title": target.record.title,
        "file_name": None,
        "author": note_author(author, ctx.base_url) if author is not None else None,
        "expires_at": None,
        "updated_at": iso(note.updated_at),
        "created_at": iso(note.created_at),
        "confidential": note.confidential,
    }


def state_note(store: Store, epic: models.Epic, user_id: int, now: dt.datetime) -> None:
    """The system note of an epic that just closed or reopened."""
    notes.create(
        store,
        kind=KIND,
        noteable_id=epic.id,
        noteable_iid=epic.iid,
        project_id=None,
        author_id=user_id,
        body=STATE_NOTES[epic.state],
        now=now,
        system=True,
    )


def forget(store: Store, epic: models.Epic) -> None:
    """Drop the notes of a deleted epic."""
    table = notes.notes(store)
    for note in list(notes.of_noteable(store, KIND, epic.id, "created_at", False)):
        table.delete(note)


def register() -> None:
    """Declare the epic note endpoints (on the notes area's router)."""
    register_noteable(
        Noteable(
            type=KIND,
            base="/groups/:id/epics/:epic_id/notes",
            params=(
                Param("id", STR, required=True, description="The ID or path of the group"),
                Param("epic_id", INT, required=True, description="The epic's global ID"),
            ),
            find=_find,
            auth=REQUIRED,
            backdate=False,
            single=_single,
        )
    )
