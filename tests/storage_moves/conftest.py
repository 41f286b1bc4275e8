"""Fixtures and helpers of the storage move tests: services stamped from the built-in
default scenario (storages ``default`` and ``storage2``, every project on ``default``), and
the background mode of long-running work."""

from __future__ import annotations

import pytest
from support.machines import background  # noqa: F401  (re-exported for the tests)
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService

READ_ONLY = "The repository is temporarily read-only. Please try again later."


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")
