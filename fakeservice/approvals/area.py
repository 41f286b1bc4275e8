"""The approvals area's registration: approval settings and rules (tables, endpoints),
merge guards and resets on push (listening to merge request events), and the
``approvals``/``approval_rules`` keys of ``projects[]`` in scenarios."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.approvals import models, reactions, routes, scenario, settings

    setup.tables(settings.install)
    setup.tables(models.install)
    setup.routes(routes.api)
    reactions.register(setup)
    scenario.register(setup.sections)
