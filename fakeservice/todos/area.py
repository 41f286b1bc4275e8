"""The to-dos area's registration: its table, its endpoints and the ``assigned`` to-dos
made when issuables get new assignees."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.issues.events import ISSUABLE_CHANGED
    from fakeservice.todos import assignments, models, routes

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(ISSUABLE_CHANGED, assignments.assigned)
