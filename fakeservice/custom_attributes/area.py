"""The custom_attributes area's registration: its endpoints (it keeps no tables of its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.custom_attributes import routes

    setup.routes(routes.api)
