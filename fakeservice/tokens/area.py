"""The tokens area's registration: its tables and its endpoints."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.tokens import impersonation_routes, models, routes

    setup.tables(models.install)
    for module in (routes, impersonation_routes):
        setup.routes(module.api)  # one router, shared by the area's routes modules
