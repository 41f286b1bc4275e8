"""The control plane's registration: the ``/_fake/`` endpoints and the per-service
journal, faults, rate limits and snapshots (``service.control``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.control import header_prefix, routes, scenario, service
    from fakeservice.dashboard import builtin_panels
    from fakeservice.web import cors

    setup.routes(routes.api)
    setup.extension(service.extend)
    cors.register(setup.sections)
    builtin_panels.register(setup)
    scenario.register(setup.sections)
    header_prefix.register(setup.sections)
