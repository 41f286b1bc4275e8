"""Fixtures of the CI tests: ``svc`` holds the CI scenario of :mod:`.ci_support`; after
every test none of the services it was handed may have answered 500. ``live`` is the
service served on a port (one per module, reset for each test) with a python-gitlab
client as the administrator."""

from __future__ import annotations

from collections.abc import Iterator

import gitlab
import pytest
from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)

from fakeservice import FakeService

from .ci_support import new_service


@pytest.fixture
def svc() -> FakeService:
    return new_service()


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[FakeService, str]]:
    svc = new_service()
    with svc.serve() as url:
        yield svc, url


@pytest.fixture
def live(server: tuple[FakeService, str]) -> Iterator[tuple[FakeService, gitlab.Gitlab]]:
    svc, url = server
    svc.reset()
    gl = gitlab.Gitlab(url, private_token="root-token")
    yield svc, gl
    assert svc.server_errors == []
