"""Scenario records for the tests' worlds."""

from __future__ import annotations

from typing import Any


def user_record(username: str, name: str, **extra: Any) -> dict[str, Any]:
    """A scenario user with one ``api`` token, ``<username>-token``."""
    return {
        "username": username,
        "name": name,
        "tokens": [{"name": "t", "token": f"{username}-token"}],
        **extra,
    }
