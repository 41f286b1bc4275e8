"""Fixtures of the CI tests: ``svc`` holds the CI scenario of :mod:`.ci_support`; after
every test none of the services it was handed may have answered 500."""

from __future__ import annotations

import pytest
from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)

from fakeservice import FakeService

from .ci_support import new_service


@pytest.fixture
def svc() -> FakeService:
    return new_service()
