"""Fixtures of the repository tests: each module's ``SCENARIO`` is built once per module
(``base``; ``served`` puts it on a live loopback server), and ``svc`` hands it to a test
and restores it afterwards, failing the test if any request answered 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fakeservice import FakeService


@pytest.fixture(scope="module")
def base(request: pytest.FixtureRequest) -> FakeService:
    """The test module's ``SCENARIO``, built once."""
    return FakeService(request.module.SCENARIO)


@pytest.fixture(scope="module")
def served(base: FakeService) -> Iterator[tuple[FakeService, str]]:
    """``base`` on 127.0.0.1 (the service and its URL)."""
    with base.serve() as url:
        yield base, url


@pytest.fixture
def svc(base: FakeService) -> Iterator[FakeService]:
    """``base`` for one test; restored after it, which must not have answered 500."""
    snapshot = base.snapshot()
    yield base
    errors = list(base.server_errors)
    base.server_errors.clear()
    base.restore(snapshot)
    assert errors == []
