"""Fixtures of the configuration-as-code tests: a small world of nested groups, users in
every position (owner, maintainer, developer, outsider, external, administrator) and a few
projects, checked after every test for 500s."""

from __future__ import annotations

from typing import Any

import pytest
from support.records import user_record
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService


def _user(username: str, name: str, **extra: Any) -> dict[str, Any]:
    return user_record(username, name, **extra)


WORLD: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-03-01T12:00:00Z"},
    "users": [
        _user("root", "Administrator", admin=True),
        _user("olga", "Olga Owner"),
        _user("mia", "Mia Maintainer"),
        _user("dan", "Dan Developer"),
        _user("otto", "Otto Outsider"),
        _user("eve", "Eve External", external=True),
    ],
    "groups": [
        {
            "path": "infra",
            "name": "Infra",
            "visibility": "public",
            "members": [
                {"user": "olga", "role": "owner"},
                {"user": "dan", "role": "developer"},
            ],
            "subgroups": [
                {
                    "path": "net",
                    "name": "Networking",
                    "visibility": "internal",
                    "members": [{"user": "mia", "role": "maintainer"}],
                },
                {"path": "vault", "name": "Vault", "visibility": "private"},
            ],
        },
        {"path": "infra1", "name": "Infra One", "visibility": "private"},
        {"path": "labs", "name": "infra2", "visibility": "internal"},
    ],
    "projects": [
        {
            "path": "infra/site",
            "visibility": "public",
            "members": [{"user": "eve", "role": "reporter"}],
        },
        {"path": "infra/net/router", "visibility": "internal"},
        {"path": "olga/notes", "visibility": "private"},
    ],
}


@pytest.fixture
def svc() -> FakeService:
    """A fresh service holding :data:`WORLD`."""
    return stamp(WORLD, "config-world")
