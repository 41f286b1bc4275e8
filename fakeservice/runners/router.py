"""The runners area's router, shared by its routes modules."""

from __future__ import annotations

from fakeservice.web.routing import AreaRouter

api = AreaRouter("runners")
