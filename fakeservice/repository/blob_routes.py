"""Blob and contributor endpoints: ``GET /projects/:id/repository/blobs/:sha`` (size,
base64 content, sha), ``.../blobs/:sha/raw`` (the bytes) and
``GET /projects/:id/repository/contributors`` (``ref``, ``order_by`` ``name``, ``email``
or ``commits`` (default), ``sort`` ``asc`` (default) or ``desc``; paginated).

An id that names no blob is ``404 Blob Not Found``. ``additions`` and ``deletions`` of a
contributor are 0, as the service answers.
"""

from __future__ import annotations

import base64
from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.repository.blobs import CONTRIBUTOR_ORDERS, Contributor, contributors, read_blob
from fakeservice.repository.guards import readable
from fakeservice.repository.router import api
from fakeservice.repository.views import RAW_TYPES, raw_content_type
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import PUBLIC

ID = Param("id", STR, required=True)
BLOB = "/projects/:id/repository/blobs/:sha"
BLOB_PARAMS = (ID, Param("sha", STR, required=True))


def _blob(ctx: Context) -> bytes:
    _, repo = readable(ctx)
    content = read_blob(repo, ctx.params["sha"])
    if content is None:
        raise NotFound("Blob")
    return content


@api.get(BLOB, params=BLOB_PARAMS, auth=PUBLIC)
def get_blob(ctx: Context) -> Any:
    """A blob's size and content (base64)."""
    content = _blob(ctx)
    return {
        "size": len(content),
        "encoding": "base64",
        "content": base64.b64encode(content).decode(),
        "sha": ctx.params["sha"].lower(),
    }


@api.get(BLOB + "/raw", params=BLOB_PARAMS, auth=PUBLIC, produces=RAW_TYPES)
def raw_blob(ctx: Context) -> Any:
    """A blob's bytes (``text/plain`` unless they hold a NUL byte)."""
    content = _blob(ctx)
    kind = raw_content_type(content)
    return Response(200, [("Content-Type", kind), ("Content-Disposition", "inline")], content)


def _contributor_view(contributor: Contributor) -> dict[str, Any]:
    return {
        "name": contributor.name,
        "email": contributor.email,
        "commits": contributor.commits,
        "additions": 0,
        "deletions": 0,
    }


@api.get(
    "/projects/:id/repository/contributors",
    params=(
        ID,
        Param("ref", STR),
        Param("order_by", STR, default="commits", values=CONTRIBUTOR_ORDERS),
        Param("sort", STR, default="asc", values=("asc", "desc")),
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_contributors(ctx: Context) -> Any:
    """Authors of the history, with their commit counts."""
    _, repo = readable(ctx)
    p = ctx.params
    found = contributors(repo, p.get("ref") or None, p["order_by"], p["sort"])
    return ctx.paginate_list(found, _contributor_view)
