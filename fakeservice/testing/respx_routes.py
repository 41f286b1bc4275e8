"""Routing a respx mock router's requests to a :class:`FakeService` in-process.

``route_to_service(router, service)`` adds a route for every URL under the service's
base URL (or ``base_url``) whose side effect answers through the service, so code that
builds its own ``httpx`` clients talks to the fake while respx patches httpx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.testing.transports import ServiceTransport

if TYPE_CHECKING:
    import httpx

    from fakeservice.host import Host as FakeService


def route_to_service(router: Any, service: FakeService, base_url: str | None = None) -> Any:
    """Add (and return) a respx route sending requests under ``base_url`` to ``service``."""
    transport = ServiceTransport(service)
    prefix = (base_url or service.base_url).rstrip("/")

    def answer(request: httpx.Request) -> httpx.Response:
        return transport.handle_request(request)

    return router.route(url__regex=_prefix_regex(prefix)).mock(side_effect=answer)


def _prefix_regex(prefix: str) -> str:
    import re

    return "^" + re.escape(prefix) + r"(?:[/?#].*)?$"
