"""The broadcast messages area's registration: its table, ``/broadcast_messages`` and the
``broadcast_messages`` scenario key."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.broadcasts import models, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    scenario.register(setup.sections)
