"""The wikis area's router: its routes modules (the API, git over HTTP) declare their
endpoints on ``api``."""

from __future__ import annotations

from fakeservice.web.routing import AreaRouter

api = AreaRouter("wikis")
