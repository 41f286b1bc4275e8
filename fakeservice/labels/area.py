"""The labels area's registration: project and group labels (table, endpoints, the
``labels`` keys of ``projects[]`` and ``groups[]`` in scenarios)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.labels import models, routes, scenario, transfer

    transfer.register()

    setup.tables(models.install)
    setup.routes(routes.api)
    scenario.register(setup.sections)
