"""Scenario and fixtures of the project life cycle tests (forks, fork merge requests,
sharing, transfer, housekeeping, push rules).

The default scenario plus: frank (a plain user, no memberships), gina (Developer of the
public group ``studio``, may create projects there), the private group ``guests`` whose
Maintainer is hugo, and the public projects ``studio/app`` (a small repository),
``studio/closed`` (forking disabled) and ``studio/members-only`` (forking private).
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

SCENARIO: dict[str, Any] = {
    "extends": "default",
    "users": [
        user_record("frank", "Frank Forker"),
        user_record("gina", "Gina Developer"),
        user_record("hugo", "Hugo Guest"),
    ],
    "groups": [
        {
            "path": "studio",
            "name": "Studio",
            "visibility": "public",
            "members": [{"user": "gina", "role": "developer"}],
        },
        {
            "path": "guests",
            "name": "Guests",
            "visibility": "private",
            "members": [{"user": "hugo", "role": "maintainer"}],
        },
    ],
    "projects": [
        {
            "path": "studio/app",
            "name": "App",
            "visibility": "public",
            "files": {"README.md": "# App\n", "app.py": "print('app')\n"},
        },
        {
            "path": "studio/closed",
            "visibility": "public",
            "features": {"forking": "disabled"},
            "files": {"README.md": "# Closed\n"},
        },
        {
            "path": "studio/members-only",
            "visibility": "public",
            "features": {"forking": "private"},
            "files": {"README.md": "# Members\n"},
        },
    ],
}


@pytest.fixture
def svc() -> FakeService:
    return stamp(SCENARIO, "lifecycle")
