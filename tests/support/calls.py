"""In-process requests for the tests: as a token (the default scenario's administrator
unless told) or as a user whose token is ``<username>-token``, and JSON bodies."""

from __future__ import annotations

import json
from typing import Any

from fakeservice import FakeService
from fakeservice.web.http import Response

ROOT = "root-token"


def call(svc: FakeService, method: str, path: str, token: str | None = ROOT, **kw: Any) -> Response:
    return svc.request(method, path, token=token, **kw)


def body(response: Response) -> Any:
    return json.loads(response.body)


def token_of(who: str | None) -> str | None:
    """The token of ``who`` (``<username>-token``); None for an anonymous caller."""
    return None if who is None else f"{who}-token"


def call_as(
    svc: FakeService, method: str, path: str, who: str | None = None, body: Any = None, **query: Any
) -> Response:
    """A request as ``who`` with an optional JSON ``body`` and the query parameters."""
    return svc.request(method, path, token=token_of(who), json_body=body, query=query or None)
