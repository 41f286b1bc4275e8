"""Request-side helpers shared by the repository endpoints: the project and repository a
request may read or write, the errors for callers without the rights, commits made with
the request's branch, message and author parameters, and decoding of ``text`` /
``base64`` file content.

* The project must be visible (else ``404 Project Not Found``); reading code needs the
  rights of :func:`~fakeservice.repository.access.can_read_code` (else ``403 Forbidden``).
* Writing to a branch needs push access to it, else 403
  ``403 Forbidden - You are not allowed to push into this branch``.
* A read-only repository (a storage move is under way) refuses writes with 400
  ``{"message": "The repository is temporarily read-only. Please try again later."}``.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence

from fakeservice.core.errors import BadRequest, Forbidden, ParamError
from fakeservice.members.access import project_role
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.projects.models import Project
from fakeservice.repository.access import (
    READ_ONLY,
    can_push_branch,
    can_push_code,
    can_read_code,
    repository_read_only,
)
from fakeservice.repository.git import TRAVERSAL, Action, ApiFlavour, Repository
from fakeservice.repository.models import commit_files, read_repository
from fakeservice.web.context import Context

PUSH_DENIED = "You are not allowed to push into this branch"


def visible_project(ctx: Context) -> Project:
    return find_project_or_404(ctx, ctx.params["id"])


def readable(ctx: Context) -> tuple[Project, Repository]:
    """The project of ``:id`` and its repository, for a caller who may read its code."""
    project = visible_project(ctx)
    if not can_read_code(ctx.store, ctx.user, project, ctx.now):
        raise Forbidden()
    return project, read_repository(ctx.store, project)


def pushable(ctx: Context) -> tuple[Project, Repository]:
    """The project of ``:id`` and its repository, for a caller who may push code to it."""
    project = visible_project(ctx)
    require_push_code(ctx, project)
    require_writable(ctx, project)
    return project, read_repository(ctx.store, project)


def caller_role(ctx: Context, project: Project) -> int:
    return project_role(ctx.store, ctx.user, project, ctx.now)


def require_push_code(ctx: Context, project: Project) -> None:
    """403 ``403 Forbidden`` unless the caller may push to the project at all."""
    if not can_push_code(project, caller_role(ctx, project)):
        raise Forbidden()


def writable(ctx: Context, project: Project, branch: str) -> Repository:
    """The project's repository, for a caller who may push to ``branch``."""
    repo = read_repository(ctx.store, project)
    if not can_push_branch(ctx.store, project, repo, branch, caller_role(ctx, project)):
        raise Forbidden(PUSH_DENIED)
    require_writable(ctx, project)
    return repo


def require_writable(ctx: Context, project: Project) -> None:
    """400 with the service's message while the repository is read-only."""
    if repository_read_only(ctx.store, project):
        raise BadRequest(READ_ONLY, raw=True)


def commit_request(
    ctx: Context,
    project: Project,
    repo: Repository,
    actions: Sequence[Action],
    *,
    force: bool = False,
    api: ApiFlavour = "files",
) -> str:
    """Commit ``actions`` as the caller, with the request's ``branch``, ``commit_message``,
    ``author_name``, ``author_email`` and ``start_branch``; returns the new commit's sha."""
    p = ctx.params
    return commit_files(
        ctx.store,
        project,
        repo,
        actions,
        user=ctx.user,
        now=ctx.now,
        branch=p["branch"],
        message=p["commit_message"],
        author_name=p.get("author_name"),
        author_email=p.get("author_email"),
        start_branch=p.get("start_branch"),
        force=force,
        api=api,
    )


def read_path(path: str) -> str:
    """A file path to read, normalised (``.`` and empty segments dropped); ``..`` is 400."""
    segments = [s for s in path.split("/") if s not in ("", ".")]
    if ".." in segments:
        raise BadRequest(TRAVERSAL, raw=True)
    return "/".join(segments)


def decode_content(text: str | None, encoding: str, label: str) -> bytes:
    """File content as bytes: UTF-8 for ``text``; ``base64`` must decode (400 ``<label> is
    invalid``), whitespace and missing padding are tolerated."""
    if text is None:
        return b""
    if encoding != "base64":
        return text.encode("utf-8", "surrogatepass")
    compact = "".join(text.split())
    compact += "=" * (-len(compact) % 4)
    try:
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ParamError(f"{label} is invalid") from error
