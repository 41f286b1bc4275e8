"""Testing helpers: the pytest plugin, in-process transports and a threaded live server.

Public helpers for code outside pytest fixtures: :func:`service_for` (a fresh service
from a cached scenario), :func:`route_to_service` (respx), :class:`LiveServer`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LiveServer", "route_to_service", "service_for"]


def __getattr__(name: str) -> Any:
    if name == "service_for":
        from fakeservice.testing.templates import service_for

        return service_for
    if name == "route_to_service":
        from fakeservice.testing.respx_routes import route_to_service

        return route_to_service
    if name == "LiveServer":
        from fakeservice.testing.server import LiveServer

        return LiveServer
    raise AttributeError(name)
