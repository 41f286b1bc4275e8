"""Repository files endpoints (seed 001 §4.1): get, metadata (HEAD), blame, raw, create,
update, delete; and the project hooks of the repository area (``initialize_with_readme``
on creation, ``readme_url`` in project views).

``:file_path`` is one URL-encoded segment (``%2F`` inside), decoded after routing. Every
file read answers with the ``X-Service-*`` metadata headers; HEAD answers with them only.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ParamError
from fakeservice.core.store import Store
from fakeservice.projects.models import Project
from fakeservice.repository.git import Action, FileInfo, Repository
from fakeservice.repository.guards import (
    commit_request,
    decode_content,
    read_path,
    readable,
    visible_project,
)
from fakeservice.repository.guards import writable as writable_repository
from fakeservice.repository.models import (
    commit_readme,
    find_repository,
    read_repository,
)
from fakeservice.repository.router import api
from fakeservice.repository.views import (
    RAW_TYPES,
    blame_view,
    content_disposition,
    file_headers,
    file_view,
    raw_content_type,
)
from fakeservice.web.context import Context
from fakeservice.web.http import Response, json_response
from fakeservice.web.params import BOOL, HASH, INT, STR, Invalid, Param
from fakeservice.web.routing import PUBLIC, REQUIRED

FILE = "/projects/:id/repository/files/:file_path"
READ_SCOPES = ("read_repository",)

ID = Param("id", STR, required=True)
FILE_PATH = Param("file_path", STR, required=True)
READ_PARAMS = (ID, FILE_PATH, Param("ref", STR, required=True, allow_blank=False))
RAW_PARAMS = (
    ID,
    FILE_PATH,
    Param("ref", STR, allow_blank=False),
    Param("lfs", BOOL, default=False),
)
BLAME_PARAMS = (*READ_PARAMS, Param("range", HASH))
SIMPLE_WRITE = (
    ID,
    FILE_PATH,
    Param("branch", STR, required=True, allow_blank=False),
    Param("commit_message", STR, required=True, allow_blank=False),
    Param("start_branch", STR),
    Param("author_email", STR),
    Param("author_name", STR),
)
EXTENDED_WRITE = (
    *SIMPLE_WRITE,
    Param("content", STR, required=True),
    Param("encoding", STR, default="text", values=("base64", "text")),
    Param("last_commit_id", STR),
    Param("execute_filemode", BOOL),
)
DELETE_PARAMS = (*SIMPLE_WRITE, Param("last_commit_id", STR))

README_NAMES = ("README.md", "README", "README.rst", "README.txt", "README.markdown")


# -- reads --------------------------------------------------------------------------------


def _read(ctx: Context, ref: str | None) -> tuple[Repository, FileInfo]:
    _, repo = readable(ctx)
    path = read_path(ctx.params["file_path"])
    return repo, repo.read_file(ref or repo.default_branch, path)


def _metadata_only(info: FileInfo) -> Response:
    return Response(200, [("Content-Type", "application/json"), *file_headers(info)], b"")


@api.get(FILE, params=READ_PARAMS, auth=PUBLIC, read_scopes=READ_SCOPES)
def get_file(ctx: Context) -> Any:
    """Get a file: metadata and base64 content."""
    _, info = _read(ctx, ctx.params["ref"])
    return json_response(file_view(info), headers=file_headers(info))


@api.head(FILE, params=READ_PARAMS, auth=PUBLIC, read_scopes=READ_SCOPES)
def head_file(ctx: Context) -> Any:
    """File metadata in ``X-Service-*`` headers."""
    return _metadata_only(_read(ctx, ctx.params["ref"])[1])


def _blame_range(raw: dict[str, Any] | None) -> tuple[int | None, int | None]:
    if raw is None:
        return None, None
    errors: list[str] = []
    bounds: dict[str, int] = {}
    for key in ("start", "end"):
        label = f"range[{key}]"
        if key not in raw:
            errors.append(f"{label} is missing")
            continue
        try:
            value = INT.coerce(raw[key])
        except Invalid:
            errors.append(f"{label} is invalid")
            continue
        if value < 1:
            errors.append(f"{label} does not have a valid value")
            continue
        bounds[key] = value
    if errors:
        raise ParamError(errors)
    return bounds["start"], bounds["end"]


@api.get(FILE + "/blame", params=BLAME_PARAMS, auth=PUBLIC, read_scopes=READ_SCOPES)
def blame(ctx: Context) -> Any:
    """Blame ranges of a file (optionally lines ``range[start]``..``range[end]``)."""
    start, end = _blame_range(ctx.params.get("range"))
    repo, info = _read(ctx, ctx.params["ref"])
    ranges = repo.blame(info.ref, info.file_path, start, end)
    return json_response(blame_view(ranges), headers=file_headers(info))


@api.head(FILE + "/blame", params=BLAME_PARAMS, auth=PUBLIC, read_scopes=READ_SCOPES)
def head_blame(ctx: Context) -> Any:
    """Blame metadata in ``X-Service-*`` headers."""
    return _metadata_only(_read(ctx, ctx.params["ref"])[1])


@api.get(FILE + "/raw", params=RAW_PARAMS, auth=PUBLIC, read_scopes=READ_SCOPES, produces=RAW_TYPES)
def raw(ctx: Context) -> Any:
    """Raw file content (``ref`` defaults to the default branch; ``lfs`` is ignored).

    ``HEAD`` is this endpoint without the body (same type, length and metadata headers)."""
    repo, info = _read(ctx, ctx.params.get("ref"))
    content = repo.raw(info.ref, info.file_path)
    headers = [
        ("Content-Type", raw_content_type(content)),
        ("Content-Disposition", content_disposition(info.file_name)),
        *file_headers(info),
    ]
    return Response(200, headers, content)


# -- writes -------------------------------------------------------------------------------


def _write(ctx: Context, kind: str) -> dict[str, Any]:
    p = ctx.params
    project = visible_project(ctx)
    content = None
    if kind != "delete":
        content = decode_content(p.get("content"), p["encoding"], "content")
    repo = writable_repository(ctx, project, p["branch"])
    action = Action(
        kind,
        p["file_path"],
        content=content,
        execute_filemode=p.get("execute_filemode") if kind != "delete" else None,
        last_commit_id=p.get("last_commit_id") if kind != "create" else None,
    )
    commit_request(ctx, project, repo, [action])
    return {"file_path": p["file_path"], "branch": p["branch"]}


@api.post(FILE, params=EXTENDED_WRITE, auth=REQUIRED)
def create_file(ctx: Context) -> Any:
    """Create a file in one commit."""
    return _write(ctx, "create")


@api.put(FILE, params=EXTENDED_WRITE, auth=REQUIRED)
def update_file(ctx: Context) -> Any:
    """Update a file in one commit (``last_commit_id`` guards against stale edits)."""
    return _write(ctx, "update")


@api.delete(FILE, params=DELETE_PARAMS, auth=REQUIRED)
def delete_file(ctx: Context) -> Any:
    """Delete a file in one commit."""
    _write(ctx, "delete")


# -- project hooks ------------------------------------------------------------------------


def initialize_with_readme(ctx: Context, project: Project, params: dict[str, Any]) -> None:
    """``initialize_with_readme``: commit ``README.md`` (``# <name>``) on the default branch
    (``main`` when the project's ``default_branch`` is not a valid branch name)."""
    if not params.get("initialize_with_readme"):
        return
    repo = read_repository(ctx.store, project)
    content = f"# {project.name}\n".encode()
    commit_readme(
        ctx.store, project, repo, content, user=ctx.user, now=ctx.now, message="Initial commit"
    )


def readme_url(store: Store, project: Project, out: dict[str, Any]) -> None:
    """``readme_url``: the README at the default branch's head, when there is one."""
    repo = find_repository(store, project)
    if repo is None or repo.is_empty:
        return
    for name in README_NAMES:
        if repo.exists(None, name):
            out["readme_url"] = f"{out['web_url']}/-/blob/{repo.default_branch}/{name}"
            return
