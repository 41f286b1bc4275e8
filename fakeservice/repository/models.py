"""Repositories of projects (one in-memory git repository per project)."""

from __future__ import annotations

from fakeservice.core.store import Store


def install(store: Store) -> None:
    """Declare the repository area's tables."""
