"""Services for the tests, checked after every test: none may have answered 500.

:func:`stamp` hands out a fresh service in a scenario's state, built once per process
and key and then restored from its template (fast); :func:`track` checks a service built
some other way. A conftest that imports :func:`no_server_errors` makes the check
automatic for its area.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.service import ServiceTemplate

_templates: dict[str, ServiceTemplate] = {}
_tracked: list[FakeService] = []


def track(service: FakeService) -> FakeService:
    """Check ``service`` after the current test."""
    _tracked.append(service)
    return service


def stamp(scenario: Mapping[str, Any] | str, key: str) -> FakeService:
    """A tracked service in ``scenario``'s state (built once per process per ``key``)."""
    if key not in _templates:
        _templates[key] = FakeService(scenario).template()
    return track(FakeService.from_template(_templates[key]))


@pytest.fixture(autouse=True)
def no_server_errors() -> Iterator[None]:
    """After the test, none of the services it was handed may have answered 500."""
    yield
    found = [error for service in _tracked for error in service.server_errors]
    _tracked.clear()
    assert not found, f"requests answered 500: {found!r}"
