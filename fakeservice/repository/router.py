"""The repository area's router: its routes modules declare their endpoints on ``api``."""

from __future__ import annotations

from fakeservice.web.routing import AreaRouter

api = AreaRouter("repository")
