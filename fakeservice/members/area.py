"""The members area's registration: its tables and its endpoints (``routes``, and
``project_users`` on the same router)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.members import models, project_users, routes

    setup.tables(models.install)
    for module in (routes, project_users):
        setup.routes(module.api)  # one router, shared by the area's routes modules
