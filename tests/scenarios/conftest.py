"""Fixtures of the scenario tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fakeservice.scenarios import sections


@pytest.fixture
def isolated_sections() -> Iterator[None]:
    """Registrations made in the test are forgotten afterwards."""
    saved = {kind: dict(found) for kind, found in sections._registries.items()}
    yield
    for kind, found in saved.items():
        sections._registries[kind].clear()
        sections._registries[kind].update(found)
