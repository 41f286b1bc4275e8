"""Fixtures and helpers of the epic tests: services stamped from the built-in default
scenario (an ultimate instance; alice owns ``acme``, bob is a Reporter there, carol is an
external Developer of one project, ``acme/secret-ops`` is private)."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import body, call
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService
from fakeservice.tokens.models import issue_token
from fakeservice.users.models import find_by_username

ALICE = "alice-token"
BOB = "bob-api-token"  # issued by the fixture: bob's scenario token is read_api only
CAROL = "carol-token"
EPICS = "/groups/acme/epics"


@pytest.fixture
def svc() -> FakeService:
    service = stamp("default", "default")
    bob = find_by_username(service.store, "bob")
    assert bob is not None
    issue_token(
        service.store,
        service.now(),
        kind="personal",
        user_id=bob.id,
        name="api",
        scopes=["api"],
        token=BOB,
    )
    return service


def create(
    svc: FakeService, path: str = EPICS, token: str = ALICE, **fields: Any
) -> dict[str, Any]:
    """Create an epic (title ``Epic`` unless given) and return it; fails on an error."""
    fields.setdefault("title", "Epic")
    response = call(svc, "POST", path, token, json_body=fields)
    assert response.status == 201, response.body
    return body(response)
