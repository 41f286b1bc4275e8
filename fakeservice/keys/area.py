"""The keys area's registration: its tables (SSH keys, GPG keys, emails) and its endpoints."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.keys import models, routes

    setup.tables(models.install)
    setup.routes(routes.api)
