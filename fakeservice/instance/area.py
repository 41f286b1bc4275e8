"""The instance area's registration: ``/application/settings``, the ``/_fake/background``
controls, the ``instance`` scenario key (plan, storages, settings, features, background
mode) and the background work that runs on the service clock."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.instance import background, routes, scenario

    setup.routes(routes.api)
    scenario.register(setup.sections)
    setup.extension(background.extend)
