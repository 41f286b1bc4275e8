"""Scenario, fixtures and helpers of the protected environments tests.

The scenario extends the built-in default one (root-token administrator, alice-token
owner of ``acme``, bob-read-token reporter with ``read_api``, carol-token external) with:

* ``acme/shop`` (private): maya Maintainer, dora Developer, gus Guest; shared with the
  group ``partners`` (Developer) and, expired, with ``oss``;
* ``acme/legacy`` (public) whose protected environments come from the scenario key.

Services are stamped from one template per process; after every test none of the
services a test made may have answered 500.
"""

from __future__ import annotations

from typing import Any

import pytest
from support.records import user_record
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService

SHOP = "acme%2Fshop"
LEGACY = "acme%2Flegacy"
ALICE = "alice-token"  # owner of acme
BOB = "bob-read-token"  # reporter in acme, read_api
CAROL = "carol-token"  # external, developer in acme/platform/api only
MAYA = "maya-token"  # maintainer of acme/shop
DORA = "dora-token"  # developer of acme/shop
GUS = "gus-token"  # guest of acme/shop
OTTO = "otto-token"  # no membership at all


SCENARIO: dict[str, Any] = {
    "extends": "default",
    "users": [
        user_record("maya", "Maya Maintainer"),
        user_record("dora", "Dora Developer"),
        user_record("gus", "Gus Guest"),
        user_record("otto", "Otto Outsider"),
        user_record("pia", "Pia Partner"),
    ],
    "groups": [
        {
            "path": "partners",
            "name": "Partners",
            "visibility": "private",
            "members": [{"user": "pia", "role": "developer"}],
        },
    ],
    "projects": [
        {
            "path": "acme/shop",
            "name": "Shop",
            "visibility": "private",
            "members": [
                {"user": "maya", "role": "maintainer"},
                {"user": "dora", "role": "developer"},
                {"user": "gus", "role": "guest"},
            ],
            "shared_with": [
                {"group": "partners", "role": "developer"},
                {"group": "oss", "role": "developer", "expires_at": "2025-06-01"},
            ],
        },
        {
            "path": "acme/legacy",
            "name": "Legacy",
            "visibility": "public",
            "shared_with": [{"group": "partners", "role": "developer"}],
            "protected_environments": [
                {
                    "name": "production",
                    "deploy_access_levels": [
                        {"access_level": "maintainer"},
                        {"user": "alice"},
                        {"group": "partners"},
                    ],
                    "required_approval_count": 2,
                    "approval_rules": [{"user": "alice", "required_approvals": 2}],
                },
                {"name": "review/*", "deploy_access_levels": [{"access_level": 30}]},
            ],
        },
    ],
}


def new_service() -> FakeService:
    """A fresh, checked service holding :data:`SCENARIO` (built once per process)."""
    return stamp(SCENARIO, "environments")


@pytest.fixture
def svc() -> FakeService:
    return new_service()


def ids(svc: FakeService) -> dict[str, int]:
    """User and group ids by username / group path."""
    from fakeservice.groups.models import find_group
    from fakeservice.users.models import find_by_username

    out: dict[str, int] = {}
    for username in ("alice", "bob", "carol", "maya", "dora", "gus", "otto", "pia", "root"):
        user = find_by_username(svc.store, username)
        assert user is not None
        out[username] = user.id
    for path in ("acme", "partners", "oss"):
        group = find_group(svc.store, path)
        assert group is not None
        out[path] = group.id
    return out
