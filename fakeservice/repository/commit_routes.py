"""Commits and tree endpoints: history (paginated, filtered), one commit, its diff, a
multi-file commit (``actions[]``, atomic) and the repository tree.

History of an unknown ``ref_name`` is an empty list (as the real service answers); one
commit or diff of an unknown ref is ``404 Commit Not Found``; a tree of an unknown ref or
path is ``404 Tree Not Found``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.repository.git import ACTIONS, Action, CommitInfo
from fakeservice.repository.guards import (
    commit_request,
    decode_content,
    readable,
    visible_project,
    writable,
)
from fakeservice.repository.router import api
from fakeservice.repository.views import (
    commit_detail,
    commit_view,
    diff_view,
    project_web_url,
    stats_view,
    tree_entry_view,
)
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, HASH, STR, Array, Param
from fakeservice.web.routing import PUBLIC, REQUIRED

COMMITS = "/projects/:id/repository/commits"
ID = Param("id", STR, required=True)
ACTION_ITEM = (
    Param("action", STR, required=True, values=ACTIONS),
    Param("file_path", STR, required=True),
    Param("previous_path", STR),
    Param("content", STR),
    Param("encoding", STR, default="text", values=("text", "base64")),
    Param("last_commit_id", STR),
    Param("execute_filemode", BOOL),
)


@api.get(
    COMMITS,
    params=(
        ID,
        Param("ref_name", STR),
        Param("since", DATETIME),
        Param("until", DATETIME),
        Param("path", STR),
        Param("author", STR),
        Param("all", BOOL, default=False),
        Param("with_stats", BOOL, default=False),
        Param("first_parent", BOOL, default=False),
        Param("order", STR, default="default", values=("default", "topo")),
        Param("trailers", BOOL, default=False),
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_commits(ctx: Context) -> Any:
    """History, newest first (``ref_name`` defaults to the default branch).

    Trailers are parsed only with ``trailers=true``; ``order=topo`` keeps the date order.
    """
    project, repo = readable(ctx)
    p = ctx.params
    try:
        found = repo.commits(
            p.get("ref_name") or None,
            path=p.get("path") or None,
            since=p.get("since"),
            until=p.get("until"),
            first_parent=p["first_parent"],
            all_refs=p["all"],
        )
    except NotFound:
        found = []
    if p.get("author"):
        needle = p["author"].lower()
        found = [c for c in found if needle in f"{c.author_name} <{c.author_email}>".lower()]
    web_url = project_web_url(ctx.base_url, project)

    def render(info: CommitInfo) -> dict[str, Any]:
        out = commit_view(info, web_url, with_trailers=p["trailers"])
        if p["with_stats"]:
            out["stats"] = stats_view(repo.commit_stats(info.id))
        return out

    return ctx.paginate_list(found, render)


@api.get(
    COMMITS + "/:sha",
    params=(ID, Param("sha", STR, required=True), Param("stats", BOOL, default=True)),
    auth=PUBLIC,
)
def get_commit(ctx: Context) -> Any:
    """One commit (a sha, branch or tag) with its stats."""
    project, repo = readable(ctx)
    info = repo.get_commit(ctx.params["sha"])
    stats = repo.commit_stats(info.id) if ctx.params["stats"] else None
    return commit_detail(info, project_web_url(ctx.base_url, project), project.id, stats)


@api.get(
    COMMITS + "/:sha/diff",
    params=(ID, Param("sha", STR, required=True), Param("unidiff", BOOL, default=False)),
    auth=PUBLIC,
    paginated=True,
)
def commit_diff(ctx: Context) -> Any:
    """The changes of one commit against its first parent."""
    _, repo = readable(ctx)
    return ctx.paginate_list(repo.diff(ctx.params["sha"]), diff_view)


@api.post(
    COMMITS,
    params=(
        ID,
        Param("branch", STR, required=True, allow_blank=False),
        Param("commit_message", STR, required=True, allow_blank=False),
        Param("start_branch", STR),
        Param("actions", Array(HASH), required=True, allow_blank=False, items=ACTION_ITEM),
        Param("author_email", STR),
        Param("author_name", STR),
        Param("stats", BOOL, default=True),
        Param("force", BOOL, default=False),
    ),
    auth=REQUIRED,
)
def create_commit(ctx: Context) -> Any:
    """Commit several file actions at once; all or nothing."""
    p = ctx.params
    project = visible_project(ctx)
    actions = [
        Action(
            item["action"],
            item["file_path"],
            content=_action_content(item, index),
            previous_path=item.get("previous_path"),
            execute_filemode=item.get("execute_filemode"),
            last_commit_id=item.get("last_commit_id"),
        )
        for index, item in enumerate(p["actions"])
    ]
    repo = writable(ctx, project, p["branch"])
    sha = commit_request(ctx, project, repo, actions, force=p["force"], api="commits")
    stats = repo.commit_stats(sha) if p["stats"] else None
    return commit_detail(
        repo.get_commit(sha), project_web_url(ctx.base_url, project), project.id, stats
    )


def _action_content(item: dict[str, Any], index: int) -> bytes | None:
    """An action's content as bytes; a ``move`` without content keeps the file's."""
    content = item.get("content")
    if content is None and item["action"] == "move":
        return None
    return decode_content(content, item["encoding"], f"actions[{index}][content]")


@api.get(
    "/projects/:id/repository/tree",
    params=(
        ID,
        Param("path", STR),
        Param("ref", STR),
        Param("recursive", BOOL, default=False),
    ),
    auth=PUBLIC,
    paginated=True,
)
def tree(ctx: Context) -> Any:
    """Entries under ``path`` at ``ref`` (trees, then blobs, then submodules)."""
    _, repo = readable(ctx)
    p = ctx.params
    entries = repo.tree(p.get("ref") or None, p.get("path") or "", p["recursive"])
    return ctx.paginate_list(entries, tree_entry_view)
