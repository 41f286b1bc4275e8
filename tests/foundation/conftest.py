"""Fixtures of the foundation tests.

Every :class:`FakeService` a test builds through these fixtures (and every module-scoped
one registered with :func:`helpers.track`) is checked after each test: no request may have
produced a 500 (the service keeps those on ``server_errors``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from fakeservice import FakeService

from .helpers import AUTH_SCENARIO, TRACKED


@pytest.fixture(autouse=True)
def no_server_errors() -> Iterator[list[FakeService]]:
    """Yield the list of this test's services; fail the test if any of them answered 500."""
    made: list[FakeService] = []
    yield made
    found = []
    for service in [*made, *TRACKED]:
        found.extend(service.server_errors)
        service.server_errors.clear()
    assert not found, f"requests answered 500: {found!r}"


@pytest.fixture
def make_service(no_server_errors: list[FakeService]) -> Callable[..., FakeService]:
    """Build a checked service from a scenario (mapping, builtin name or None)."""

    def make(scenario: Mapping[str, Any] | str | None = "default", **kw: Any) -> FakeService:
        service = FakeService(scenario, **kw)
        no_server_errors.append(service)
        return service

    return make


@pytest.fixture
def svc(make_service: Callable[..., FakeService]) -> FakeService:
    """A fresh service with the built-in default scenario."""
    return make_service()


@pytest.fixture
def auth_svc(make_service: Callable[..., FakeService]) -> FakeService:
    """A fresh service with one user per authentication method (see helpers.AUTH_SCENARIO)."""
    return make_service(AUTH_SCENARIO)
