"""Fixtures of the instance tests: services stamped from the built-in default scenario
(a self-managed ultimate instance with the storages ``default`` and ``storage2``)."""

from __future__ import annotations

import pytest
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")
