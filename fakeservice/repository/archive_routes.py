"""Archive endpoint: ``GET /projects/:id/repository/archive[.<format>]`` with ``sha``
(default: the default branch), ``path`` (one folder) and ``format`` (``tar.gz`` default,
``tar.bz2``/``tbz``/``tbz2``/``tb2``/``bz2``, ``tar``, ``zip``; the path's extension wins).

The file is named ``<project path>-<ref>-<sha>[-<folder>].<ext>`` (slashes become ``-``),
as the service names it; a ref that names no commit is ``404 Not found``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.repository import archive
from fakeservice.repository.guards import readable
from fakeservice.repository.router import api
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL, STR, Param
from fakeservice.web.routing import PUBLIC

PATH = "/projects/:id/repository/archive"
PARAMS = (
    Param("id", STR, required=True),
    Param("sha", STR),
    Param("path", STR),
    Param("format", STR, values=tuple(archive.FORMATS)),
    Param("include_lfs_blobs", BOOL, default=True),
)


def _serve(ctx: Context, suffix: str | None) -> Response:
    project, repo = readable(ctx)
    p = ctx.params
    ref = p.get("sha") or repo.default_branch
    info = repo.find_commit(ref)
    if info is None:
        raise NotFound()
    extension = archive.FORMATS[suffix or p.get("format") or "tar.gz"]
    path = (p.get("path") or "").strip("/")
    top = archive.prefix(project.path, ref, info.id, path)
    content = archive.build(repo, info, path, top, extension)
    headers = [
        ("Content-Type", archive.CONTENT_TYPES[extension]),
        ("Content-Disposition", f'attachment; filename="{top}.{extension}"'),
        ("Content-Transfer-Encoding", "binary"),
    ]
    return Response(200, headers, content)


def _for(suffix: str | None) -> Callable[[Context], Any]:
    def repository_archive(ctx: Context) -> Response:
        """The repository (or one folder of it) at a ref as an archive."""
        return _serve(ctx, suffix)

    return repository_archive


ALL_TYPES = tuple(sorted(set(archive.CONTENT_TYPES.values())))
api.get(PATH, params=PARAMS, auth=PUBLIC, produces=ALL_TYPES)(_for(None))
for _suffix, _extension in archive.FORMATS.items():
    _produces = (archive.CONTENT_TYPES[_extension],)
    api.get(f"{PATH}.{_suffix}", params=PARAMS, auth=PUBLIC, produces=_produces)(_for(_suffix))
