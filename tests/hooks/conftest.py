"""Fixtures of the hooks tests: a fresh default-scenario service with the ``X-Gitlab-``
header prefix, respx capturing deliveries, and a local HTTP receiver; every service is
checked for 500s after each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import respx
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
    track,
)

from fakeservice import FakeService

from .receiver import Receiver

HOOK_URL = "http://hooks.example/receive"


@pytest.fixture
def svc() -> FakeService:
    """The default scenario, fresh, with the real service's header prefix."""
    service = stamp("default", "hooks-default")
    from fakeservice.web.vendor_headers import set_header_prefix

    set_header_prefix(service.store, "X-Gitlab-")
    return service


@pytest.fixture
def captured() -> Iterator[Any]:
    """respx routing ``HOOK_URL`` (answering 200); ``captured.calls`` are the deliveries."""
    with respx.mock(assert_all_called=False) as mock:
        route = mock.post(HOOK_URL).respond(200, json={"received": True})
        yield route


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as found:
        yield found


def fresh(scenario: Any = "default") -> FakeService:
    return track(FakeService(scenario))
