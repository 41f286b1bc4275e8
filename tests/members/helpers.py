"""Request helpers shared by the members tests."""

from __future__ import annotations

import gitlab

from fakeservice import FakeService
from fakeservice.web.http import Response


def uid(svc: FakeService, username: str) -> int:
    from fakeservice.users.models import find_by_username

    found = find_by_username(svc.store, username)
    assert found is not None
    return found.id


def roles(response: Response) -> list[tuple[str, int]]:
    """``(username, access_level)`` of a member list."""
    assert response.status == 200, response.body
    return [(m["username"], m["access_level"]) for m in response.json()]


def client(url: str, who: str) -> gitlab.Gitlab:
    """python-gitlab signed in as ``who`` (``<who>-token``)."""
    return gitlab.Gitlab(url, private_token=f"{who}-token")
