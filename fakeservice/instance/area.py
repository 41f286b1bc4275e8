"""The instance area's registration: ``/application/settings``, ``/license``, the ``/_fake/background``
controls, the ``instance`` scenario key (plan, storages, settings, features, background
mode) and the background work that runs on the service clock."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.instance import background, license, license_routes, routes, scenario

    setup.tables(license.install)
    for module in (routes, license_routes):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    scenario.register(setup.sections)
    setup.extension(background.extend)
