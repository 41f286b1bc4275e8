"""The instance area's router, shared by its routes modules (settings, licenses)."""

from __future__ import annotations

from fakeservice.web.routing import AreaRouter

api = AreaRouter("instance")
