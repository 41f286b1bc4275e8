"""Serving avatars: ``GET /uploads/-/system/<kind>/avatar/<id>/<file name>`` (public, as
the real service serves avatars)."""

from __future__ import annotations

from typing import Any

from fakeservice.avatars.models import CONTENT_TYPES, find
from fakeservice.core.errors import NotFound
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import PUBLIC, AreaRouter

api = AreaRouter("avatars")


@api.get(
    "/uploads/-/system/:kind/avatar/:record_id/:file_name",
    params=(
        Param("kind", STR, required=True, values=("user", "group", "project")),
        Param("record_id", INT, required=True),
        Param("file_name", STR, required=True),
    ),
    auth=PUBLIC,
    prefix="",
    produces=tuple(sorted({*CONTENT_TYPES.values(), "application/octet-stream"})),
)
def avatar_file(ctx: Context) -> Any:
    """The avatar file itself."""
    p = ctx.params
    avatar = find(
        ctx.store, f"/uploads/-/system/{p['kind']}/avatar/{p['record_id']}/{p['file_name']}"
    )
    if avatar is None:
        raise NotFound()
    headers = [("Content-Type", avatar.content_type), ("Cache-Control", "max-age=0, private")]
    return Response(200, headers, avatar.data)
