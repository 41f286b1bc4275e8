"""``GET /openapi.json``: the OpenAPI document of the API, served by the API itself.

Public (no credentials needed). The document's server is the base URL the request came
to, so a tool pointed at a running fake finds the fake. It documents the endpoints of the
service's own composition and is built once per router and base URL.
"""

from __future__ import annotations

from typing import Any

from fakeservice.meta.routes import api
from fakeservice.web.context import Context
from fakeservice.web.http import Response, dumps
from fakeservice.web.openapi import openapi_document
from fakeservice.web.routing import PUBLIC, Router

_documents: dict[tuple[int, str], tuple[Router, bytes]] = {}


def _document(router: Router, server_url: str) -> bytes:
    key = (id(router), server_url)
    found = _documents.get(key)
    if found is None or found[0] is not router:
        if len(_documents) > 16:
            _documents.clear()
        found = _documents[key] = (
            router,
            dumps(openapi_document(router.endpoints, server_url=server_url)),
        )
    return found[1]


@api.get("/openapi.json", auth=PUBLIC)
def get_openapi(ctx: Context) -> Response:
    """The OpenAPI 3.1 document of this API."""
    service: Any = ctx.service
    body = _document(service.router, ctx.base_url)
    return Response(200, [("Content-Type", "application/json")], body)
