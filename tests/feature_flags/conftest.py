"""Fixtures of the feature flag tests: a project with a user list and two flags from the
scenario, a developer, a reporter and an outsider; checked after every test for 500s."""

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
        user_record("dan", "Dan Developer"),
        user_record("rita", "Rita Reporter"),
        user_record("otto", "Otto Outsider"),
    ],
    "projects": [
        {
            "path": "dan/shop",
            "visibility": "public",
            "members": [{"user": "rita", "role": "reporter"}],
            "feature_flag_user_lists": [{"name": "beta testers", "user_xids": "u1,u2"}],
            "feature_flags": [
                {
                    "name": "new_checkout",
                    "description": "the new checkout",
                    "strategies": [
                        {
                            "name": "flexibleRollout",
                            "parameters": {
                                "groupId": "default",
                                "rollout": "25",
                                "stickiness": "default",
                            },
                            "scopes": ["production"],
                        },
                        {"name": "gitlabUserList", "user_list": "beta testers", "scopes": ["*"]},
                    ],
                },
                {"name": "dark_mode", "active": False},
            ],
        },
        {"path": "dan/other", "visibility": "private"},
    ],
}


@pytest.fixture
def svc() -> FakeService:
    """A fresh service holding :data:`WORLD`."""
    return stamp(WORLD, "feature-flags-world")
