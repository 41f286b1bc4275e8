"""Request helpers shared by the members tests."""

from __future__ import annotations

from typing import Any

from fakeservice import FakeService
from fakeservice.web.http import Response


def call(
    svc: FakeService, method: str, path: str, who: str | None = None, body: Any = None, **query: Any
) -> Response:
    token = None if who is None else f"{who}-token"
    return svc.request(method, path, token=token, json_body=body, query=query or None)


def uid(svc: FakeService, username: str) -> int:
    from fakeservice.users.models import find_by_username

    found = find_by_username(svc.store, username)
    assert found is not None
    return found.id


def roles(response: Response) -> list[tuple[str, int]]:
    """``(username, access_level)`` of a member list."""
    assert response.status == 200, response.body
    return [(m["username"], m["access_level"]) for m in response.json()]
