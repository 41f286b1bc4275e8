"""The Geo area's registration: the Geo nodes table, its endpoints (nodes, statuses,
repair) and the ``geo_nodes`` scenario key."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.geo import models, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    scenario.register(setup.sections)
