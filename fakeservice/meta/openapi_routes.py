"""``GET /openapi.json``: the OpenAPI document of the API, served by the API itself.

Public (no credentials needed). The document's server is the base URL the request came
to, so a tool pointed at a running fake finds the fake. It is built once per base URL.
"""

from __future__ import annotations

from functools import lru_cache

from fakeservice.web.context import Context
from fakeservice.web.http import Response, dumps
from fakeservice.web.routing import PUBLIC, api


@lru_cache(maxsize=8)
def _document(server_url: str) -> bytes:
    from fakeservice.web.openapi import openapi_document

    return dumps(openapi_document(server_url=server_url))


@api.get("/openapi.json", auth=PUBLIC)
def get_openapi(ctx: Context) -> Response:
    """The OpenAPI 3.1 document of this API."""
    return Response(200, [("Content-Type", "application/json")], _document(ctx.base_url))
