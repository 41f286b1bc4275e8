"""The router the tokens area's routes modules share."""

from __future__ import annotations

from fakeservice.web.routing import AreaRouter

api = AreaRouter("tokens")
