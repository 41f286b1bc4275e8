"""The avatars area's registration: serving the avatar files under ``/uploads`` (the
users, groups and projects areas take the ``avatar`` uploads)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.avatars import routes

    setup.routes(routes.api)
