"""The namespaces area's registration: its table, its endpoints and its scenario keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.namespaces import models, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    scenario.register(setup.sections)
