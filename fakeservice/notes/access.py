"""Who sees which note, finding a note of a noteable, and keeping ``user_notes_count``
in step: shared by the note, discussion and award emoji endpoints."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.members.models import REPORTER
from fakeservice.notes import models
from fakeservice.notes.registry import Noteable, Target
from fakeservice.web.context import Context


def visible(ctx: Context, target: Target, note: models.Note) -> bool:
    if not note.confidential:
        return True
    return target.role >= REPORTER or (ctx.user is not None and ctx.user.id == note.author_id)


def recount(ctx: Context, noteable: Noteable, target: Target) -> None:
    if target.table is None:
        return
    count = models.user_notes_count(ctx.store, noteable.type, target.record.id)
    target.table(ctx.store).update(target.record, user_notes_count=count)


def find_note(ctx: Context, kind: str, target: Target) -> models.Note:
    note = models.notes(ctx.store).get(ctx.params["note_id"])
    if (
        note is None
        or note.noteable_type != kind
        or note.noteable_id != target.record.id
        or not visible(ctx, target, note)
    ):
        raise NotFound()
    return note


def writable(ctx: Context, noteable: Noteable) -> tuple[Target, str]:
    """The noteable a write names (403 when the caller may not comment) and the checked
    ``body`` of the note to write."""
    target = noteable.find(ctx)
    if not target.can_write:
        raise Forbidden()
    return target, models.check_body(ctx.params.get("body"))


def add_note(
    ctx: Context, noteable: Noteable, target: Target, body: str, **extra: Any
) -> models.Note:
    """Write the caller's note on the target (``created_at`` honoured for those who may
    backdate) and recount the noteable's notes; ``extra``: more :func:`models.create`
    fields."""
    created_at = ctx.params.get("created_at") if target.can_backdate else None
    note = models.create(
        ctx.store,
        kind=noteable.type,
        noteable_id=target.record.id,
        noteable_iid=getattr(target.record, "iid", None),
        project_id=target.project_id,
        author_id=ctx.user.id,
        body=body,
        now=ctx.now,
        created_at=created_at,
        **extra,
    )
    recount(ctx, noteable, target)
    return note
