"""fakeservice: an in-memory, stateful fake of a code-hosting service's REST API v4.

The public entry point is :class:`fakeservice.FakeService`.
"""

from __future__ import annotations

from fakeservice.version import __version__

__all__ = ["FakeService", "__version__"]


def __getattr__(name: str) -> object:
    if name == "FakeService":
        from fakeservice.service import FakeService

        return FakeService
    raise AttributeError(name)
