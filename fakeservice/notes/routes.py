"""The five note endpoints, declared once per registered noteable (see :mod:`.registry`),
and the registrations of issues and merge requests (snippets register with snippets).

* list: ``sort`` (``asc``, ``desc`` default), ``order_by`` (``created_at`` default,
  ``updated_at``), paginated (20 by default);
* create: ``body`` (≤ 1,000,000 characters), ``created_at`` (honoured for administrators
  and owners only), ``confidential`` (issues only); an award-emoji-only body answers the
  award emoji;
* update: ``body`` (required except on issues), ``confidential`` (issues only); the
  author only;
* delete: the author or a Maintainer (204).

Confidential notes are seen by Reporters and up and by their author.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden
from fakeservice.members.models import MAINTAINER
from fakeservice.notes import awards, models
from fakeservice.notes.access import add_note, find_note, recount, visible, writable
from fakeservice.notes.discussion_routes import declare_discussions
from fakeservice.notes.registry import Noteable
from fakeservice.notes.router import api
from fakeservice.notes.views import award_view, note_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, INT, STR, Param
from fakeservice.web.routing import REQUIRED

NOTE_ID = Param("note_id", INT, required=True, description="The note's id")


_noteables: dict[str, Noteable] = {}


def register_noteable(noteable: Noteable) -> None:
    """Declare the note endpoints of ``noteable`` (once per type)."""
    if noteable.type not in _noteables:
        _noteables[noteable.type] = noteable
        if noteable.notes_api:
            declare(noteable)
        declare_discussions(noteable)


def declare(noteable: Noteable) -> None:
    """Declare list, get, create, update and delete under ``noteable.base``."""
    base, path_params = noteable.base, noteable.params
    confidential = (Param("confidential", BOOL),) if noteable.confidential else ()
    backdate = (Param("created_at", DATETIME),) if noteable.backdate else ()

    def render(ctx: Context) -> Any:
        return lambda note: note_view(ctx.store, note, ctx.base_url)

    @api.get(
        base,
        params=(
            *path_params,
            Param("sort", STR, values=("asc", "desc"), default="desc"),
            Param("order_by", STR, values=("created_at", "updated_at"), default="created_at"),
            Param("activity_filter", STR, values=("all_notes", "only_comments", "only_activity")),
        ),
        auth=noteable.auth,
        paginated=True,
    )
    def list_notes(ctx: Context) -> Any:
        """List the noteable's notes (system notes included)."""
        target = noteable.find(ctx)
        p = ctx.params
        selection = models.of_noteable(
            ctx.store, noteable.type, target.record.id, p["order_by"], p["sort"] == "desc"
        )
        activity = p.get("activity_filter")
        if activity == "only_comments":
            selection = selection.filter(lambda n: not n.system)
        elif activity == "only_activity":
            selection = selection.filter(lambda n: n.system)
        selection = selection.filter(lambda n: visible(ctx, target, n))
        return ctx.paginate(selection, render(ctx))

    @api.get(base + "/:note_id", params=(*path_params, NOTE_ID), auth=noteable.auth)
    def get_note(ctx: Context) -> Any:
        """Get one note."""
        target = noteable.find(ctx)
        note = find_note(ctx, noteable.type, target)
        if noteable.single is not None:
            return noteable.single(ctx, target, note)
        return note_view(ctx.store, note, ctx.base_url)

    @api.post(
        base,
        params=(*path_params, Param("body", STR, required=True), *backdate, *confidential),
        auth=REQUIRED,
    )
    def create_note(ctx: Context) -> Any:
        """Create a note (201); an award-emoji-only body awards the emoji."""
        target, body = writable(ctx, noteable)
        p = ctx.params
        emoji = models.EMOJI_ONLY.match(body)
        name = awards.normalize(emoji.group(1)) if emoji is not None else None
        if name is not None:
            award = awards.ensure(
                ctx.store, noteable.type, target.record.id, ctx.user.id, name, ctx.now
            )
            return award_view(ctx.store, award, ctx.base_url)
        note = add_note(ctx, noteable, target, body, confidential=bool(p.get("confidential")))
        return note_view(ctx.store, note, ctx.base_url)

    body_param = Param("body", STR, required=not noteable.confidential)

    @api.put(
        base + "/:note_id", params=(*path_params, NOTE_ID, body_param, *confidential), auth=REQUIRED
    )
    def update_note(ctx: Context) -> Any:
        """Modify a note (its author only)."""
        target = noteable.find(ctx)
        note = find_note(ctx, noteable.type, target)
        if note.author_id != ctx.user.id or note.system:
            raise Forbidden()
        p = ctx.params
        changes: dict[str, Any] = {}
        if p.get("body") is not None or "body" in p:
            changes["body"] = models.check_body(p.get("body"))
        if p.get("confidential") is not None:
            changes["confidential"] = p["confidential"]
        if changes:
            models.notes(ctx.store).update(note, updated_at=ctx.now, **changes)
        return note_view(ctx.store, note, ctx.base_url)

    @api.delete(base + "/:note_id", params=(*path_params, NOTE_ID), auth=REQUIRED)
    def delete_note(ctx: Context) -> Any:
        """Delete a note (204; its author or a Maintainer)."""
        target = noteable.find(ctx)
        note = find_note(ctx, noteable.type, target)
        if note.author_id != ctx.user.id and target.role < MAINTAINER:
            raise Forbidden()
        models.delete(ctx.store, note)
        awards.forget(ctx.store, "Note", note.id)
        recount(ctx, noteable, target)
