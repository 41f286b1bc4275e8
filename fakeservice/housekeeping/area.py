"""The housekeeping area's registration: its endpoint and its cleanup."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.housekeeping import routes
    from fakeservice.projects.models import PROJECT_DELETED

    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, routes.forget_project)
