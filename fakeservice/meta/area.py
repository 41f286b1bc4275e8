"""The meta area's registration: its endpoints (it keeps no tables of its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.meta import openapi_routes, routes

    # openapi_routes declares GET /openapi.json on the meta router
    setup.routes(routes.api)
    assert openapi_routes.api is routes.api
