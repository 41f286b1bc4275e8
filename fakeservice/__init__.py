"""fakeservice: an in-memory, stateful fake of a code-hosting service's REST API v4.

The public entry point is :class:`fakeservice.FakeService`.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["FakeService", "__version__"]


def __getattr__(name: str) -> object:
    if name == "FakeService":
        from fakeservice.service import FakeService

        return FakeService
    raise AttributeError(name)
