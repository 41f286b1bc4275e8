"""Draft note endpoints under ``/projects/:id/merge_requests/:merge_request_iid/draft_notes``:
list, get, create (201), update (``note``, ``position``), delete (204), ``PUT
/:draft_note_id/publish`` (204) and ``POST /bulk_publish`` (204).

The merge request is found as its notes find it. Drafts are their author's only: another
user's draft is 404, and lists show the caller's own. Everything is checked when written
(``note`` as a note's body, ``in_reply_to_discussion_id`` a thread of this merge request,
``resolve_discussion`` by who may resolve it, ``position`` against the current diff), so
publishing cannot fail: a reply joins its thread (and resolves it when asked), a draft
with a ``position`` starts a diff thread, any other starts a thread; the draft goes.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound, ValidationFailed
from fakeservice.draft_notes import models
from fakeservice.members.models import DEVELOPER
from fakeservice.notes import models as notes
from fakeservice.notes.discussion_routes import answer, start
from fakeservice.notes.noteables import MERGE_REQUEST_NOTES, MR_PARAMS
from fakeservice.notes.registry import Target
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, HASH, INT, STR, AtLeastOne, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("draft_notes")

BASE = "/projects/:id/merge_requests/:merge_request_iid/draft_notes"
ONE = BASE + "/:draft_note_id"
DRAFT_ID = Param("draft_note_id", INT, required=True, description="The draft note's id")
NO_POSITION = {
    "base_sha": None,
    "start_sha": None,
    "head_sha": None,
    "old_path": None,
    "new_path": None,
    "position_type": "text",
    "old_line": None,
    "new_line": None,
    "line_range": None,
}


def draft_view(draft: models.DraftNote) -> dict[str, Any]:
    return {
        "id": draft.id,
        "author_id": draft.author_id,
        "merge_request_id": draft.merge_request_id,
        "resolve_discussion": draft.resolve_discussion,
        "discussion_id": draft.discussion_id,
        "note": draft.note,
        "commit_id": draft.commit_id,
        "line_code": None,
        "position": dict(draft.position or NO_POSITION),
    }


def _find(ctx: Context, target: Target) -> models.DraftNote:
    found = models.find(ctx.store, target.record.id, ctx.user.id, ctx.params["draft_note_id"])
    if found is None:
        raise NotFound()
    return found


def _thread(ctx: Context, target: Target, sha: str) -> notes.Discussion:
    found = notes.discussions(ctx.store).by("sha", sha)
    if found is None or (found.noteable_type, found.noteable_id) != (
        "MergeRequest",
        target.record.id,
    ):
        raise ValidationFailed({"base": ["Thread to reply to cannot be found"]})
    return found


def _position(ctx: Context, target: Target, raw: Any) -> dict[str, Any] | None:
    check = MERGE_REQUEST_NOTES.position
    return check(ctx, target, raw) if raw is not None and check is not None else None


@api.get(BASE, params=MR_PARAMS, auth=REQUIRED, paginated=True)
def list_draft_notes(ctx: Context) -> Any:
    """The caller's draft notes on the merge request, oldest first."""
    target = MERGE_REQUEST_NOTES.find(ctx)
    return ctx.paginate(models.of_author(ctx.store, target.record.id, ctx.user.id), draft_view)


@api.get(ONE, params=(*MR_PARAMS, DRAFT_ID), auth=REQUIRED)
def get_draft_note(ctx: Context) -> Any:
    """One of the caller's draft notes."""
    return draft_view(_find(ctx, MERGE_REQUEST_NOTES.find(ctx)))


@api.post(
    BASE,
    params=(
        *MR_PARAMS,
        Param("note", STR, required=True, description="The draft's text"),
        Param("commit_id", STR),
        Param("in_reply_to_discussion_id", STR),
        Param("resolve_discussion", BOOL, default=False),
        Param("position", HASH),
    ),
    auth=REQUIRED,
)
def create_draft_note(ctx: Context) -> Any:
    """Write a draft note (201)."""
    p = ctx.params
    target = MERGE_REQUEST_NOTES.find(ctx)
    if not target.can_write:
        raise Forbidden()
    body = notes.check_body(p.get("note"))
    reply = p.get("in_reply_to_discussion_id")
    thread = _thread(ctx, target, reply) if reply else None
    resolve = bool(p.get("resolve_discussion"))
    may_resolve = target.role >= DEVELOPER or ctx.user.id == target.record.author_id
    if resolve and (thread is None or not may_resolve):
        raise ValidationFailed({"base": ["User is not allowed to resolve thread"]})
    where = _position(ctx, target, p.get("position")) if thread is None else None
    draft = models.add(
        ctx.store,
        merge_request_id=target.record.id,
        author_id=ctx.user.id,
        note=body,
        commit_id=p.get("commit_id"),
        discussion_id=thread.sha if thread is not None else None,
        resolve_discussion=resolve,
        position=where,
    )
    return draft_view(draft)


@api.put(
    ONE,
    params=(*MR_PARAMS, DRAFT_ID, Param("note", STR), Param("position", HASH)),
    constraints=(AtLeastOne(("note", "position")),),
    auth=REQUIRED,
)
def update_draft_note(ctx: Context) -> Any:
    """Change a draft's ``note`` or ``position``."""
    p = ctx.params
    target = MERGE_REQUEST_NOTES.find(ctx)
    draft = _find(ctx, target)
    changes: dict[str, Any] = {}
    if "note" in p:
        changes["note"] = notes.check_body(p.get("note"))
    if p.get("position") is not None and draft.discussion_id is None:
        changes["position"] = _position(ctx, target, p["position"])
    models.drafts(ctx.store).update(draft, **changes)
    return draft_view(draft)


@api.delete(ONE, params=(*MR_PARAMS, DRAFT_ID), auth=REQUIRED)
def delete_draft_note(ctx: Context) -> Any:
    """Delete a draft (204)."""
    target = MERGE_REQUEST_NOTES.find(ctx)
    models.drafts(ctx.store).delete(_find(ctx, target))


def _publish(ctx: Context, target: Target, draft: models.DraftNote) -> None:
    thread = notes.discussions(ctx.store).by("sha", draft.discussion_id or "")
    if thread is None:
        start(ctx, MERGE_REQUEST_NOTES, target, draft.note, draft.position)
    else:
        answer(ctx, MERGE_REQUEST_NOTES, target, thread, draft.note)
        if draft.resolve_discussion:
            found = [n for n in notes.of_discussion(ctx.store, thread.sha) if notes.resolvable(n)]
            notes.resolve(ctx.store, found, ctx.user.id, ctx.now)
    models.drafts(ctx.store).delete(draft)


@api.put(ONE + "/publish", params=(*MR_PARAMS, DRAFT_ID), auth=REQUIRED, status=204)
def publish_draft_note(ctx: Context) -> Any:
    """Publish one draft as a note (204)."""
    target = MERGE_REQUEST_NOTES.find(ctx)
    _publish(ctx, target, _find(ctx, target))


@api.post(BASE + "/bulk_publish", params=MR_PARAMS, auth=REQUIRED, status=204)
def bulk_publish_draft_notes(ctx: Context) -> Any:
    """Publish all the caller's drafts on the merge request, oldest first (204)."""
    target = MERGE_REQUEST_NOTES.find(ctx)
    for draft in list(models.of_author(ctx.store, target.record.id, ctx.user.id)):
        _publish(ctx, target, draft)
