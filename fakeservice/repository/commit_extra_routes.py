"""More commit endpoints: the refs that hold a commit (``type`` ``branch``, ``tag`` or
``all``), cherry-pick and revert onto a branch (``dry_run``; conflicts and empty changes
are 400 with the service's ``message`` and ``error_code``), and commit comments (list,
create with ``path``/``line``/``line_type``).

Cherry-pick and revert need push access to the branch (403 ``You are not allowed to push
into this branch``); an unknown commit is ``404 Commit Not Found``, an unknown branch
``404 Branch Not Found``. Comments need a signed-in caller who may read the code.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import ApiError, NotFound
from fakeservice.repository import comments
from fakeservice.repository.cherry import ChangeError, Kind, message_for, replay
from fakeservice.repository.git import CommitInfo
from fakeservice.repository.guards import readable, visible_project, writable
from fakeservice.repository.models import commit_files
from fakeservice.repository.router import api
from fakeservice.repository.views import commit_view, project_web_url
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import BOOL, INT, STR, Param
from fakeservice.web.routing import PUBLIC, REQUIRED

COMMIT = "/projects/:id/repository/commits/:sha"
ID = Param("id", STR, required=True)
SHA = Param("sha", STR, required=True)
REF_TYPES = ("branch", "tag", "all")


@api.get(
    COMMIT + "/refs",
    params=(ID, SHA, Param("type", STR, default="all", values=REF_TYPES)),
    auth=PUBLIC,
    paginated=True,
)
def commit_refs(ctx: Context) -> Any:
    """Branches, then tags, whose history holds the commit (by name)."""
    _, repo = readable(ctx)
    sha = repo.get_commit(ctx.params["sha"]).id
    kind = ctx.params["type"]
    found: list[dict[str, str]] = []
    if kind in ("branch", "all"):
        for branch in sorted(repo.branches(), key=lambda b: b.name):
            if repo.is_ancestor(sha, branch.commit_id):
                found.append({"type": "branch", "name": branch.name})
    if kind in ("tag", "all"):
        for tag in sorted(repo.tags(), key=lambda t: t.name):
            if repo.is_ancestor(sha, tag.commit_id):
                found.append({"type": "tag", "name": tag.name})
    return ctx.paginate_list(found, dict)


def _change(ctx: Context, kind: Kind) -> Any:
    p = ctx.params
    project = visible_project(ctx)
    repo = writable(ctx, project, p["branch"])
    info: CommitInfo = repo.get_commit(p["sha"])
    head = repo.branch(p["branch"])
    if head is None:
        raise NotFound("Branch")
    try:
        actions = replay(repo, info, head.commit_id, kind)
    except ChangeError as error:
        if p["dry_run"]:
            return json_response({"dry_run": "error"}, 200)
        body = {"message": error.message, "error_code": error.error_code}
        raise ApiError(body, status=400) from None
    if p["dry_run"]:
        return json_response({"dry_run": "success"}, 200)
    sha = commit_files(
        ctx.store,
        project,
        repo,
        actions,
        user=ctx.user,
        now=ctx.now,
        branch=p["branch"],
        message=message_for(info, kind, p.get("message")),
        author_name=info.author_name if kind == "cherry_pick" else None,
        author_email=info.author_email if kind == "cherry_pick" else None,
    )
    return commit_view(repo.get_commit(sha), project_web_url(ctx.base_url, project))


BRANCH = Param("branch", STR, required=True, allow_blank=False)
DRY_RUN = Param("dry_run", BOOL, default=False)


@api.post(
    COMMIT + "/cherry_pick",
    params=(ID, SHA, BRANCH, DRY_RUN, Param("message", STR)),
    auth=REQUIRED,
)
def cherry_pick(ctx: Context) -> Any:
    """Apply a commit's change on a branch as a new commit."""
    return _change(ctx, "cherry_pick")


@api.post(COMMIT + "/revert", params=(ID, SHA, BRANCH, DRY_RUN), auth=REQUIRED)
def revert(ctx: Context) -> Any:
    """Undo a commit's change on a branch with a new commit."""
    return _change(ctx, "revert")


def _comment_view(ctx: Context, comment: comments.CommitComment) -> dict[str, Any]:
    author = users(ctx.store).get(comment.author_id)
    return {
        "note": comment.note,
        "path": comment.path,
        "line": comment.line,
        "line_type": comment.line_type,
        "author": user_ref(author, ctx.base_url),
        "created_at": iso(comment.created_at),
    }


@api.get(COMMIT + "/comments", params=(ID, SHA), auth=PUBLIC, paginated=True)
def list_comments(ctx: Context) -> Any:
    """A commit's comments, oldest first."""
    project, repo = readable(ctx)
    sha = repo.get_commit(ctx.params["sha"]).id
    return ctx.paginate(
        comments.of_commit(ctx.store, project.id, sha), lambda c: _comment_view(ctx, c)
    )


@api.post(
    COMMIT + "/comments",
    params=(
        ID,
        SHA,
        Param("note", STR, required=True, allow_blank=False),
        Param("path", STR),
        Param("line", INT),
        Param("line_type", STR, default="new", values=("new", "old")),
    ),
    auth=REQUIRED,
)
def create_comment(ctx: Context) -> Any:
    """Comment on a commit (on a line of a file with ``path``, ``line`` and ``line_type``)."""
    project, repo = readable(ctx)
    p = ctx.params
    sha = repo.get_commit(p["sha"]).id
    on_line = p.get("path") is not None and p.get("line") is not None
    comment = comments.add(
        ctx.store,
        project_id=project.id,
        sha=sha,
        note=p["note"],
        author_id=ctx.user.id,
        created_at=ctx.now,
        path=p["path"] if on_line else None,
        line=p["line"] if on_line else None,
        line_type=p["line_type"] if on_line else None,
    )
    return _comment_view(ctx, comment)
