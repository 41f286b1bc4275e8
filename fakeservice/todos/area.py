"""The to-dos area's registration: its table and its endpoints."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.todos import models, routes

    setup.tables(models.install)
    setup.routes(routes.api)
