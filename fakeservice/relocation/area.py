"""The relocation area's registration: project and group transfers."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.relocation import groups, projects

    setup.routes(projects.api)
    setup.routes(groups.api)
