"""Scenario, fixtures and helpers of the collaboration tests (labels, milestones, issues,
merge requests, notes, approvals, snippets).

The scenario extends the default one with ``acme/shopfloor/shop`` (private, a real repository with
a ``feature`` branch one commit ahead of ``main``) whose members are maya (Maintainer),
dora (Developer), rita (Reporter) and gus (Guest); otto is no member. Labels, milestones
and issues come from the scenario keys.
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

SHOP = "acme%2Fshopfloor%2Fshop"

SCENARIO: dict[str, Any] = {
    "extends": "default",
    "users": [
        user_record("maya", "Maya Maintainer"),
        user_record("dora", "Dora Developer"),
        user_record("rita", "Rita Reporter"),
        user_record("gus", "Gus Guest"),
        user_record("otto", "Otto Outsider"),
    ],
    "groups": [
        {
            "path": "acme/shopfloor",
            "name": "Shopfloor",
            "labels": [{"name": "group-wide", "color": "#00ff00"}],
        },
    ],
    "projects": [
        {
            "path": "acme/shopfloor/shop",
            "name": "Shop",
            "visibility": "private",
            "default_branch": "main",
            "members": [
                {"user": "maya", "role": "maintainer"},
                {"user": "dora", "role": "developer"},
                {"user": "rita", "role": "reporter"},
                {"user": "gus", "role": "guest"},
            ],
            "files": {
                "README.md": "# Shop\n",
                "app.py": "print('shop')\n",
                ".gitlab-ci.yml": "test:\n  script: [make test]\n  rules:\n    - when: always\n",
            },
            "commits": [
                {
                    "message": "Add checkout",
                    "author": "dora",
                    "branch": "feature",
                    "from": "main",
                    "files": {"checkout.py": "def checkout():\n    return True\n"},
                }
            ],
            "labels": [
                {"name": "bug", "color": "#d9534f", "description": "Broken"},
                {"name": "feature", "color": "#5cb85c"},
            ],
            "milestones": [{"title": "v1.0", "due_date": "2026-12-01"}, {"title": "v0.9"}],
            "issues": [
                {
                    "title": "Cart is empty",
                    "author": "rita",
                    "labels": ["bug"],
                    "milestone": "v1.0",
                },
                {"title": "Add coupons", "author": "dora", "labels": ["feature"]},
                {
                    "title": "Secret",
                    "author": "maya",
                    "confidential": True,
                    "description": "- [x] one\n- [ ] two",
                },
            ],
        },
    ],
}


def new_service() -> FakeService:
    return stamp(SCENARIO, "collaboration")


@pytest.fixture
def svc() -> FakeService:
    return new_service()


def user_id(svc: FakeService, username: str) -> int:
    from fakeservice.users.models import find_by_username

    user = find_by_username(svc.store, username)
    assert user is not None
    return user.id
