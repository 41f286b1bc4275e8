"""Fixtures of the groups tests: a small world of nested groups of every visibility, users
in every position (owner, maintainer, developer, project-only member, outsider, external,
administrator) and projects in, below and shared with the groups.

Every service built here is checked after each test: no request may have answered 500.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest
from support.records import user_record
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    track,
)

from fakeservice import FakeService


def _user(username: str, **extra: Any) -> dict[str, Any]:
    return user_record(username, username.capitalize(), **extra)


WORLD: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-03-01T12:00:00Z"},
    "users": [
        _user("root", admin=True),
        _user("olga"),  # Owner of alpha, Reporter of zeta
        _user("mia"),  # Maintainer of alpha/beta
        _user("dan"),  # Developer of alpha
        _user("pat"),  # member of the project zeta/hidden/proj only
        _user("otto"),  # no membership at all
        _user("eve", external=True),
        _user("nog", can_create_group=False),
    ],
    "groups": [
        {
            "path": "alpha",
            "name": "Alpha",
            "visibility": "public",
            "description": "The alpha group",
            "custom_attributes": {"team": "core", "tier": "gold"},
            "members": [{"user": "olga", "role": "owner"}, {"user": "dan", "role": "developer"}],
            "subgroups": [
                {
                    "path": "beta",
                    "name": "Beta",
                    "visibility": "internal",
                    "members": [{"user": "mia", "role": "maintainer"}],
                    "subgroups": [{"path": "gamma", "name": "Gamma", "visibility": "private"}],
                },
                {"path": "delta", "name": "Delta", "visibility": "private"},
            ],
        },
        {
            "path": "zeta",
            "name": "Zeta",
            "visibility": "private",
            "members": [{"user": "olga", "role": "reporter"}],
            "subgroups": [{"path": "hidden", "name": "Hidden", "visibility": "private"}],
        },
        {
            "path": "omega",
            "name": "Omega",
            "visibility": "internal",
            "statistics": {"storage_size": 100, "repository_size": 60},
        },
        {"path": "pub", "name": "Commons", "visibility": "public"},
    ],
    "projects": [
        {
            "path": "alpha/site",
            "visibility": "public",
            "created_at": "2026-01-02T00:00:00Z",
            "custom_attributes": {"kind": "web"},
        },
        {
            "path": "alpha/tools",
            "visibility": "internal",
            "archived": True,
            "created_at": "2026-01-03T00:00:00Z",
        },
        {
            "path": "alpha/secret",
            "visibility": "private",
            "created_at": "2026-01-04T00:00:00Z",
            "features": {"issues": "disabled"},
        },
        {"path": "alpha/beta/api", "visibility": "internal", "created_at": "2026-01-05T00:00:00Z"},
        {
            "path": "alpha/beta/gamma/core",
            "visibility": "private",
            "created_at": "2026-01-06T00:00:00Z",
        },
        {
            "path": "zeta/hidden/proj",
            "visibility": "private",
            "created_at": "2026-01-07T00:00:00Z",
            "members": [{"user": "pat", "role": "developer"}],
        },
        {
            "path": "omega/lib",
            "visibility": "internal",
            "created_at": "2026-01-08T00:00:00Z",
            "shared_with": [{"group": "alpha", "role": "reporter"}],
        },
        {
            "path": "pub/shared",
            "visibility": "public",
            "created_at": "2026-01-09T00:00:00Z",
            "shared_with": [{"group": "alpha", "role": "developer"}],
        },
        {
            "path": "omega/old",
            "visibility": "internal",
            "created_at": "2026-01-10T00:00:00Z",
            "shared_with": [{"group": "alpha", "role": "developer", "expires_at": "2026-02-01"}],
        },
    ],
}


@pytest.fixture
def make_service() -> Callable[..., FakeService]:
    """Build a checked service (default: :data:`WORLD`)."""

    def make(scenario: Mapping[str, Any] | str | None = None) -> FakeService:
        return track(FakeService(WORLD if scenario is None else scenario))

    return make


@pytest.fixture
def svc(make_service: Callable[..., FakeService]) -> FakeService:
    """A fresh service holding :data:`WORLD`."""
    return make_service()
