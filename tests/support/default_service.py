"""Fixtures serving the built-in default scenario (alice owns ``acme``, bob is a reporter
there): ``svc`` in process, fresh for each test; ``served`` over a live loopback server
(one per module), reset before each test. A conftest imports the ones it uses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from fakeservice import FakeService
from support.services import stamp


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


def live_fixtures(scenario: Any) -> tuple[Any, Any]:
    """The ``live`` (``scenario`` served on a loopback port, one per module) and
    ``served`` (that service reset before each test, checked for 500s after it) fixtures."""

    @pytest.fixture(scope="module")
    def live() -> Iterator[tuple[FakeService, str]]:
        service = FakeService(scenario)
        with service.serve() as url:
            yield service, url

    @pytest.fixture
    def served(live: tuple[FakeService, str]) -> Iterator[tuple[FakeService, str]]:
        service, url = live
        service.reset()
        yield service, url
        assert not service.server_errors

    return live, served


live, served = live_fixtures("default")
