"""Epic notes and award emoji through the notes area: ``/groups/:id/epics/:epic_id/notes``
names the epic by its global ``id`` (as python-gitlab's ``epic.notes`` does),
``/groups/:id/epics/:epic_iid/award_emoji`` by its iid; single notes answer the seed 001
§2.4 shape (with ``confidential``), notes are not backdated, and closing or reopening an
epic writes a system note."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import NotFound
from fakeservice.core.store import Store
from fakeservice.epics import models
from fakeservice.epics.access import epic_group, epic_role
from fakeservice.members.models import PLANNER, REPORTER
from fakeservice.notes import awards
from fakeservice.notes import models as notes
from fakeservice.notes.award_routes import Awardable, register_awardable
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
    return _target(ctx, epic)


def _find_by_iid(ctx: Context) -> Target:
    epic = models.find(ctx.store, epic_group(ctx), ctx.params["epic_iid"])
    if epic is None:
        raise NotFound()
    return _target(ctx, epic)


def _target(ctx: Context, epic: models.Epic) -> Target:
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
    for note in list(notes.of_noteable(store, KIND, epic.id, "created_at", False)):
        awards.forget(store, "Note", note.id)
        notes.delete(store, note)
    awards.forget(store, KIND, epic.id)


GROUP_ID = Param("id", STR, required=True, description="The ID or path of the group")


def register() -> None:
    """Declare the epic note endpoints (by the epic's global id) and the award emoji ones
    (by its iid, as the service names them) on the notes area's routers."""
    register_awardable(
        Awardable(
            type=KIND,
            base="/groups/:id/epics/:epic_iid",
            params=(GROUP_ID, Param("epic_iid", INT, required=True, description="The epic's iid")),
            find=_find_by_iid,
        )
    )
    register_noteable(
        Noteable(
            type=KIND,
            base="/groups/:id/epics/:epic_id/notes",
            params=(
                GROUP_ID,
                Param("epic_id", INT, required=True, description="The epic's global ID"),
            ),
            find=_find,
            auth=REQUIRED,
            backdate=False,
            single=_single,
        )
    )
