"""The file templates area's registration: its endpoints (built-in data, no tables)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.file_templates import routes

    setup.routes(routes.api)
