"""Discussions (threads of notes), declared once per registered noteable next to its notes:
``<noteable>/discussions`` for issues, merge requests, snippets and epics.

* list (paginated, oldest thread first), get (``404 Discussion Not Found``) and get one
  of its notes;
* create a thread (``body``, ``created_at`` as for notes; on merge requests a
  ``position`` makes a ``DiffNote`` checked against the diff, :mod:`.positions`);
* add a note to a thread (a note made through the notes API is an individual-note
  discussion; answering it turns it into a thread, as the service does), modify a note
  (``body`` by its author, or ``resolved`` on merge requests), delete a note (its author
  or a Maintainer; the thread goes with its last note);
* merge requests only: ``PUT .../discussions/:discussion_id`` with ``resolved`` resolves
  or unresolves every resolvable note of the thread (the merge request's author and
  Developers and up; 403 otherwise).

Notes share the notes storage: each note carries its thread's 40-hex ``discussion_id``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.members.models import DEVELOPER, MAINTAINER
from fakeservice.notes import models
from fakeservice.notes.access import add_note, find_note, recount, visible, writable
from fakeservice.notes.registry import Noteable, Target
from fakeservice.notes.router import api
from fakeservice.notes.views import discussion_view, note_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, HASH, INT, STR, ExactlyOne, Param
from fakeservice.web.routing import REQUIRED

DISCUSSION_ID = Param("discussion_id", STR, required=True, description="The thread's id")
NOTE_ID = Param("note_id", INT, required=True, description="The note's id")


def _discussion(ctx: Context, noteable: Noteable, target: Target) -> models.Discussion:
    found = models.discussions(ctx.store).by("sha", ctx.params["discussion_id"])
    if (
        found is None
        or (found.noteable_type, found.noteable_id) != (noteable.type, target.record.id)
        or not _readable(ctx, target, found)
    ):
        raise NotFound("Discussion")
    return found


def _readable(ctx: Context, target: Target, discussion: models.Discussion) -> bool:
    return any(visible(ctx, target, n) for n in models.of_discussion(ctx.store, discussion.sha))


def _note_of(ctx: Context, noteable: Noteable, target: Target, thread: models.Discussion) -> Any:
    note = find_note(ctx, noteable.type, target)
    if note.discussion_id != thread.sha:
        raise NotFound()
    return note


def _can_resolve(ctx: Context, target: Target) -> bool:
    return ctx.user.id == getattr(target.record, "author_id", None) or target.role >= DEVELOPER


def declare_discussions(noteable: Noteable) -> None:
    """Declare the discussion endpoints of ``noteable`` under ``<base>/discussions``."""
    base = noteable.base.removesuffix("/notes") + "/discussions"
    one = base + "/:discussion_id"
    path_params = noteable.params
    backdate = (Param("created_at", DATETIME),) if noteable.backdate else ()
    position = (Param("position", HASH),) if noteable.position is not None else ()

    def render(ctx: Context, target: Target) -> Any:
        return lambda thread: discussion_view(
            ctx.store, thread, ctx.base_url, lambda n: visible(ctx, target, n)
        )

    @api.get(base, params=path_params, auth=noteable.auth, paginated=True)
    def list_discussions(ctx: Context) -> Any:
        """List the noteable's discussions, oldest first."""
        target = noteable.find(ctx)
        selection = models.discussions_of(ctx.store, noteable.type, target.record.id)
        selection = selection.filter(lambda d: _readable(ctx, target, d))
        return ctx.paginate(selection, render(ctx, target))

    @api.get(one, params=(*path_params, DISCUSSION_ID), auth=noteable.auth)
    def get_discussion(ctx: Context) -> Any:
        """Get one discussion with its notes."""
        target = noteable.find(ctx)
        return render(ctx, target)(_discussion(ctx, noteable, target))

    @api.post(
        base,
        params=(*path_params, Param("body", STR, required=True), *backdate, *position),
        auth=REQUIRED,
    )
    def create_discussion(ctx: Context) -> Any:
        """Start a thread (201); on merge requests ``position`` makes a diff note."""
        target, body = writable(ctx, noteable)
        p = ctx.params
        where = None
        if noteable.position is not None and p.get("position") is not None:
            where = noteable.position(ctx, target, p["position"])
        thread = start(ctx, noteable, target, body, where)
        return render(ctx, target)(thread)

    @api.post(
        one + "/notes",
        params=(*path_params, DISCUSSION_ID, Param("body", STR, required=True), *backdate),
        auth=REQUIRED,
    )
    def add_discussion_note(ctx: Context) -> Any:
        """Answer a thread (201); an individual note becomes a thread."""
        target, body = writable(ctx, noteable)
        note = answer(ctx, noteable, target, _discussion(ctx, noteable, target), body)
        return note_view(ctx.store, note, ctx.base_url)

    @api.get(
        one + "/notes/:note_id", params=(*path_params, DISCUSSION_ID, NOTE_ID), auth=noteable.auth
    )
    def get_discussion_note(ctx: Context) -> Any:
        """Get one note of a thread."""
        target = noteable.find(ctx)
        note = _note_of(ctx, noteable, target, _discussion(ctx, noteable, target))
        return note_view(ctx.store, note, ctx.base_url)

    resolved = (Param("resolved", BOOL),) if noteable.resolvable else ()
    edit_constraints = (ExactlyOne(("body", "resolved")),) if noteable.resolvable else ()

    @api.put(
        one + "/notes/:note_id",
        params=(*path_params, DISCUSSION_ID, NOTE_ID, Param("body", STR), *resolved),
        constraints=edit_constraints,
        auth=REQUIRED,
    )
    def update_discussion_note(ctx: Context) -> Any:
        """Modify a note of a thread: its ``body`` (the author) or ``resolved``."""
        target = noteable.find(ctx)
        note = _note_of(ctx, noteable, target, _discussion(ctx, noteable, target))
        p = ctx.params
        if p.get("resolved") is not None:
            if not models.resolvable(note) or not _can_resolve(ctx, target):
                raise Forbidden()
            models.resolve(ctx.store, [note], ctx.user.id if p["resolved"] else None, ctx.now)
            return note_view(ctx.store, note, ctx.base_url)
        if note.author_id != ctx.user.id or note.system:
            raise Forbidden()
        body = models.check_body(p.get("body"))
        models.notes(ctx.store).update(note, body=body, updated_at=ctx.now)
        return note_view(ctx.store, note, ctx.base_url)

    @api.delete(
        one + "/notes/:note_id", params=(*path_params, DISCUSSION_ID, NOTE_ID), auth=REQUIRED
    )
    def delete_discussion_note(ctx: Context) -> Any:
        """Delete a note of a thread (204; its author or a Maintainer)."""
        target = noteable.find(ctx)
        note = _note_of(ctx, noteable, target, _discussion(ctx, noteable, target))
        if note.author_id != ctx.user.id and target.role < MAINTAINER:
            raise Forbidden()
        models.delete(ctx.store, note)
        recount(ctx, noteable, target)

    if not noteable.resolvable:
        return

    @api.put(
        one,
        params=(*path_params, DISCUSSION_ID, Param("resolved", BOOL, required=True)),
        auth=REQUIRED,
    )
    def resolve_discussion(ctx: Context) -> Any:
        """Resolve or unresolve a thread (every resolvable note of it)."""
        target = noteable.find(ctx)
        thread = _discussion(ctx, noteable, target)
        found = [n for n in models.of_discussion(ctx.store, thread.sha) if models.resolvable(n)]
        if not found or not _can_resolve(ctx, target):
            raise Forbidden()
        models.resolve(ctx.store, found, ctx.user.id if ctx.params["resolved"] else None, ctx.now)
        return render(ctx, target)(thread)


def start(
    ctx: Context,
    noteable: Noteable,
    target: Target,
    body: str,
    where: dict[str, Any] | None,
) -> models.Discussion:
    """A new thread of the caller's note (a diff note at a checked ``where``)."""
    thread = models.open_discussion(
        ctx.store, noteable.type, target.record.id, ctx.now, individual=False
    )
    kind = "DiffNote" if where else "DiscussionNote"
    _add(ctx, noteable, target, thread, body, kind, where)
    return thread


def answer(
    ctx: Context, noteable: Noteable, target: Target, thread: models.Discussion, body: str
) -> models.Note:
    """The caller's answer in ``thread`` (an individual note's thread becomes a thread)."""
    first = next(iter(models.of_discussion(ctx.store, thread.sha)))
    if thread.individual:
        models.discussions(ctx.store).update(thread, individual=False)
        models.notes(ctx.store).update(first, type="DiscussionNote")
    kind = "DiffNote" if first.type == "DiffNote" else "DiscussionNote"
    return _add(ctx, noteable, target, thread, body, kind, first.position)


def _add(
    ctx: Context,
    noteable: Noteable,
    target: Target,
    thread: models.Discussion,
    body: str,
    kind: str,
    position: dict[str, Any] | None,
) -> models.Note:
    commit = getattr(target.record, "sha", None)
    return add_note(
        ctx,
        noteable,
        target,
        body,
        discussion=thread,
        note_type=kind,
        position=position,
        commit_id=commit,
    )
