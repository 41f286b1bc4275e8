"""The sharing area's registration: its endpoints, the groups' ``shared_with`` scenario
key, and dropping the shares of a deleted group."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.sharing import models, routes, scenario

    setup.routes(routes.api)
    setup.listen(NAMESPACE_DELETED, models.forget_group)
    scenario.register(setup.sections)
