"""Fixtures of the Geo tests: services stamped from the built-in default scenario (a
self-managed ultimate instance whose own node ``fakeservice`` is the primary, with the
secondary ``replica``)."""

from __future__ import annotations

import pytest
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService


@pytest.fixture
def geo_svc() -> FakeService:
    return stamp("default", "default")
