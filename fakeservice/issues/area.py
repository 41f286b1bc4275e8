"""The issues area's registration: issues (table, endpoints, ``projects[].issues`` in
scenarios) and issue links (``links``: table, endpoints, ``projects[].issue_links``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.issues import models, routes, scenario
    from fakeservice.issues.links import models as links
    from fakeservice.issues.links import routes as link_routes
    from fakeservice.issues.links import scenario as link_scenario

    setup.tables(models.install)
    setup.tables(links.install)
    for module in (routes, link_routes):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    scenario.register(setup.sections)
    link_scenario.register(setup.sections)  # after ``issues``: every issue exists first
