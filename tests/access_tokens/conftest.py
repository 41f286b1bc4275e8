"""Fixtures of the access-token tests: the default scenario (alice owns ``acme``, bob is a
reporter there), fresh for each test and checked for 500s."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[FakeService, str]]:
    service = FakeService("default")
    with service.serve() as url:
        yield service, url


@pytest.fixture
def served(live: tuple[FakeService, str]) -> Iterator[tuple[FakeService, str]]:
    """The live default service, reset before each test."""
    service, url = live
    service.reset()
    yield service, url
    assert not service.server_errors
