"""Fixtures of the members tests: nested groups with direct and inherited members, a
project shared with another group, a personal project and an expired membership.

Every service built here is checked after each test: no request may have answered 500.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support.default_service import live_fixtures
from support.records import user_record
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    track,
)

from fakeservice import FakeService


def _user(username: str, **extra: Any) -> dict[str, Any]:
    return user_record(username, f"{username.capitalize()} Example", **extra)


# Member records are created in this order (their ids follow it): alpha olga, alpha dan,
# beta mia, beta dan, beta ivy (expired), solo olga, other carl, site pat, site dan, dotfiles dora.
WORLD: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-03-01T12:00:00Z"},
    "users": [
        _user("root", admin=True),
        _user("olga", public_email="olga@pub.example"),
        _user("mia"),
        _user("dan"),
        _user("pat"),
        _user("carl"),
        _user("dora"),
        _user("ivy"),
        _user("otto"),
        _user("eve", external=True),
    ],
    "groups": [
        {
            "path": "alpha",
            "name": "Alpha",
            "visibility": "public",
            "members": [{"user": "olga", "role": "owner"}, {"user": "dan", "role": "developer"}],
            "subgroups": [
                {
                    "path": "beta",
                    "name": "Beta",
                    "visibility": "internal",
                    "members": [
                        {"user": "mia", "role": "maintainer"},
                        {"user": "dan", "role": "reporter"},
                        {"user": "ivy", "role": "developer", "expires_at": "2026-02-01"},
                    ],
                    "subgroups": [{"path": "gamma", "name": "Gamma", "visibility": "private"}],
                },
            ],
        },
        {
            "path": "solo",
            "name": "Solo",
            "visibility": "private",
            "members": [{"user": "olga", "role": "owner"}],
        },
        {
            "path": "other",
            "name": "Other",
            "visibility": "public",
            "members": [{"user": "carl", "role": "maintainer"}],
        },
    ],
    "projects": [
        {
            "path": "alpha/site",
            "visibility": "public",
            "members": [
                {"user": "pat", "role": "developer"},
                {"user": "dan", "role": "maintainer"},
            ],
            "shared_with": [{"group": "other", "role": "reporter"}],
        },
        {
            "path": "alpha/beta/api",
            "visibility": "internal",
            "shared_with": [{"group": "other", "role": "developer", "expires_at": "2026-02-01"}],
        },
        {"path": "alpha/beta/gamma/vault", "visibility": "private"},
        {
            "path": "olga/dotfiles",
            "visibility": "public",
            "created_at": "2026-02-15T08:00:00Z",
            "members": [{"user": "dora", "role": "reporter"}],
        },
    ],
}


@pytest.fixture
def make_service() -> Callable[..., FakeService]:
    """Build a checked service (default: :data:`WORLD`)."""

    def make(scenario: dict[str, Any] | None = None) -> FakeService:
        return track(FakeService(WORLD if scenario is None else scenario))

    return make


@pytest.fixture
def svc(make_service: Callable[..., FakeService]) -> FakeService:
    """A fresh service holding :data:`WORLD`."""
    return make_service()


live, served = live_fixtures(WORLD)  # WORLD served on a loopback port, per module
