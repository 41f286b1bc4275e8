"""Fixtures of the wiki tests: a group with an owner, a developer and a reporter, a public
and a private project, and an outsider; checked after every test for 500s."""

from __future__ import annotations

from typing import Any

import pytest
from support.records import user_record
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService

WORLD: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-03-01T12:00:00Z"},
    "users": [
        user_record("root", "Administrator", admin=True),
        user_record("olga", "Olga Owner"),
        user_record("dan", "Dan Developer"),
        user_record("rita", "Rita Reporter"),
        user_record("otto", "Otto Outsider"),
    ],
    "groups": [
        {
            "path": "docs",
            "name": "Docs",
            "visibility": "public",
            "members": [
                {"user": "olga", "role": "owner"},
                {"user": "dan", "role": "developer"},
                {"user": "rita", "role": "reporter"},
            ],
            "wiki": [{"title": "handbook", "content": "Group handbook", "author": "olga"}],
        },
        {"path": "closed", "name": "Closed", "visibility": "private"},
    ],
    "projects": [
        {
            "path": "docs/site",
            "visibility": "public",
            "wiki": [
                {"title": "home", "content": "# Welcome\n\nStart *here*.", "author": "olga"},
                {"title": "ops/On Call", "content": "= Pager", "format": "asciidoc"},
            ],
        },
        {"path": "docs/secret", "visibility": "private"},
    ],
}


@pytest.fixture
def svc() -> FakeService:
    """A fresh service holding :data:`WORLD`."""
    return stamp(WORLD, "wikis-world")
