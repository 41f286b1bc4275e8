"""The clusters area's registration: its tables and its endpoints."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.clusters import models, owned, routes  # noqa: F401  (owned declares on routes.api)

    setup.tables(models.install)
    setup.routes(routes.api)
