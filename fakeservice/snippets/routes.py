"""Snippet endpoints: the eight project operations of §4.5 under ``/projects/:id/snippets``
and the personal ``/snippets`` ones clients need (list own, get, create, update, delete,
raw, raw file, agent details), plus their notes registration (project snippets only).

Creating needs ``files[]`` or the deprecated ``file_name`` + ``content`` (exactly one of
``files``, ``content``); each ``files[]`` update action is part of one commit in the
snippet's repository. Project snippets are created by Reporters and up; authors,
Maintainers and administrators change and delete them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import BadRequest, Forbidden
from fakeservice.members.models import OWNER, REPORTER
from fakeservice.notes.award_routes import Awardable, register_awardable
from fakeservice.notes.registry import Noteable, Target
from fakeservice.notes.routes import register_noteable
from fakeservice.projects.models import Project
from fakeservice.repository.git import Action
from fakeservice.snippets import access, models
from fakeservice.snippets.views import agent_view, note_shape, snippet_view
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import (
    HASH,
    INT,
    STR,
    Array,
    AtLeastOne,
    ExactlyOne,
    MutuallyExclusive,
    Param,
)
from fakeservice.web.routing import ADMIN, PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("snippets")

PROJECT_ID = Param(
    "id", STR, required=True, description="The ID or URL-encoded path of the project"
)
SNIPPET_ID = Param("snippet_id", INT, required=True, description="The snippet's id")
ACTIONS = ("create", "update", "delete", "move")
CREATE_FILE = (Param("file_path", STR, required=True), Param("content", STR, required=True))
UPDATE_FILE = (
    Param("action", STR, required=True, values=ACTIONS),
    Param("file_path", STR),
    Param("previous_path", STR),
    Param("content", STR),
)
COMMON = (
    Param("description", STR),
    Param("visibility", STR, values=models.VISIBILITIES),
    Param("file_name", STR),
    Param("content", STR),
)

Scope = Callable[[Context, bool], "Project | None"]


def _encode(text: str | None) -> bytes:
    return (text or "").encode("utf-8", "surrogatepass")


def _create_actions(p: dict[str, Any]) -> list[Action]:
    if p.get("files") is not None:
        return [
            Action("create", f["file_path"], _encode(f["content"]))
            for f in p["files"]
            if isinstance(f, dict)
        ]
    if not p.get("file_name"):
        raise BadRequest("file_name is missing")
    return [Action("create", p["file_name"], _encode(p.get("content")))]


def _update_actions(ctx: Context, snippet: models.Snippet) -> list[Action]:
    p = ctx.params
    if p.get("files") is not None:
        out = []
        for item in p["files"]:
            if not isinstance(item, dict):
                continue
            kind = item["action"]
            content = (
                None
                if kind in ("delete",) or item.get("content") is None
                else _encode(item["content"])
            )
            out.append(
                Action(
                    kind,
                    item.get("file_path") or "",
                    content,
                    previous_path=item.get("previous_path"),
                )
            )
        return out
    if p.get("content") is None and p.get("file_name") is None:
        return []
    paths = models.files(ctx.store, snippet)
    if len(paths) != 1:
        raise BadRequest("Snippet with multiple files must be updated with files")
    current = paths[0]
    name = p.get("file_name") or current
    content = _encode(p["content"]) if p.get("content") is not None else None
    if name != current:
        return [Action("move", name, content, previous_path=current)]
    return [Action("update", current, content)] if content is not None else []


def _project_scope(ctx: Context, write: bool) -> Project | None:
    project = access.project_of(ctx)
    if write and access.role(ctx, project) < REPORTER:
        raise Forbidden()
    return project


def _personal_scope(ctx: Context, write: bool) -> Project | None:
    return None


def _raw(content: bytes) -> Response:
    return Response(200, [("Content-Type", "text/plain; charset=utf-8")], content)


def _declare(base: str, owner: tuple[Param, ...], scope: Scope, *, project: bool) -> None:
    one = base + "/:snippet_id"
    read_auth = PUBLIC if project else REQUIRED

    @api.get(base, params=owner, auth=read_auth, paginated=True)
    def list_snippets(ctx: Context) -> Any:
        """Snippets the caller may see (personal: the caller's own), newest first."""
        found = scope(ctx, False)
        if found is not None:
            selection = models.of_project(ctx.store, found.id).filter(
                access.visible_filter(ctx, found)
            )
        else:
            selection = models.personal_of(ctx.store, ctx.user.id)
        return ctx.paginate(selection, lambda s: snippet_view(ctx.store, s, ctx.base_url))

    @api.get(one, params=(*owner, SNIPPET_ID), auth=PUBLIC)
    def get_snippet(ctx: Context) -> Any:
        """Get one snippet."""
        return snippet_view(ctx.store, access.find(ctx, scope(ctx, False)), ctx.base_url)

    @api.post(
        base,
        params=(
            *owner,
            Param("title", STR, required=True),
            *COMMON,
            Param("files", Array(HASH), items=CREATE_FILE),
        ),
        constraints=(ExactlyOne(("files", "content")),),
        auth=REQUIRED,
    )
    def create_snippet(ctx: Context) -> Any:
        """Create a snippet (201) with its files committed to its own repository."""
        found = scope(ctx, True)
        p = ctx.params
        if ctx.user.external and p.get("visibility") == "internal" and found is None:
            raise Forbidden()
        snippet = models.create(
            ctx.store,
            ctx.user,
            ctx.now,
            project_id=found.id if found else None,
            title=p["title"] or "",
            description=p.get("description"),
            visibility=p.get("visibility") or "private",
            actions=_create_actions(p),
            user_agent=ctx.request.headers.get("user-agent", ""),
            ip_address=ctx.request.client,
        )
        return snippet_view(ctx.store, snippet, ctx.base_url)

    @api.put(
        one,
        params=(
            *owner,
            SNIPPET_ID,
            Param("title", STR),
            *COMMON,
            Param("files", Array(HASH), items=UPDATE_FILE),
        ),
        constraints=(
            AtLeastOne(("content", "description", "files", "file_name", "title", "visibility")),
            MutuallyExclusive(("files", "content")),
        ),
        auth=REQUIRED,
    )
    def update_snippet(ctx: Context) -> Any:
        """Update fields and commit file actions (one commit)."""
        found = scope(ctx, False)
        snippet = access.find(ctx, found)
        access.require_write(ctx, found, snippet)
        p = ctx.params
        fields = {k: p[k] for k in ("title", "description", "visibility") if p.get(k) is not None}
        models.update(ctx.store, snippet, ctx.user, ctx.now, fields, _update_actions(ctx, snippet))
        return snippet_view(ctx.store, snippet, ctx.base_url)

    @api.delete(one, params=(*owner, SNIPPET_ID), auth=REQUIRED)
    def delete_snippet(ctx: Context) -> Any:
        """Delete a snippet (204)."""
        found = scope(ctx, False)
        snippet = access.find(ctx, found)
        access.require_write(ctx, found, snippet)
        models.delete(ctx.store, snippet)

    @api.get(one + "/raw", params=(*owner, SNIPPET_ID), auth=PUBLIC, produces=("text/plain",))
    def snippet_raw(ctx: Context) -> Any:
        """The first file's content at the head, as plain text."""
        snippet = access.find(ctx, scope(ctx, False))
        paths = models.files(ctx.store, snippet)
        repo = models.repository(ctx.store, snippet)
        return _raw(repo.raw(models.BRANCH, paths[0]) if paths else b"")

    @api.get(
        one + "/files/:ref/*file_path/raw",
        params=(
            *owner,
            SNIPPET_ID,
            Param("ref", STR, required=True),
            Param("file_path", STR, required=True),
        ),
        auth=PUBLIC,
        produces=("text/plain",),
    )
    def snippet_file_raw(ctx: Context) -> Any:
        """One file's content at ``ref`` (a branch, tag or commit of the snippet's repository)."""
        snippet = access.find(ctx, scope(ctx, False))
        repo = models.repository(ctx.store, snippet)
        return _raw(repo.raw(ctx.params["ref"], ctx.params["file_path"]))

    @api.get(one + "/user_agent_detail", params=(*owner, SNIPPET_ID), auth=ADMIN)
    def snippet_agent_detail(ctx: Context) -> Any:
        """How the snippet was created (administrators only)."""
        return agent_view(access.find(ctx, scope(ctx, False)))


_declare("/projects/:id/snippets", (PROJECT_ID,), _project_scope, project=True)
_declare("/snippets", (), _personal_scope, project=False)


def _snippet_noteable(ctx: Context) -> Target:
    project = access.project_of(ctx)
    snippet = access.find(ctx, project)
    level = access.role(ctx, project)
    return Target(snippet, project.id, level >= OWNER, level, models.snippets)


def register_notes() -> None:
    """Declare the note and award emoji endpoints of project snippets (on the notes area's
    routers)."""
    register_awardable(
        Awardable(
            type="Snippet",
            base="/projects/:id/snippets/:snippet_id",
            params=(PROJECT_ID, SNIPPET_ID),
            find=_snippet_noteable,
        )
    )
    register_noteable(
        Noteable(
            type="Snippet",
            base="/projects/:id/snippets/:snippet_id/notes",
            params=(PROJECT_ID, SNIPPET_ID),
            find=_snippet_noteable,
            single=lambda ctx, target, note: note_shape(
                ctx.store, target.record, note, ctx.base_url
            ),
        )
    )
