"""The dashboard's panels, as data: an area adds one with ``setup.panel(Panel(...))``.

A panel has a key, a title, its columns and a function ``rows(service, limit)`` giving
the newest records as JSON-ready mappings (read from the store's indexes, at most
``limit`` of them) and ``count(service)`` their total. The page draws a cell by its
value: text, a ``status`` chip (a column named ``status``), or a row of state chips (a
list of ``{"label", "status"}``: a pipeline's jobs, each in the state its machine is in).
A panel whose ``table`` is missing from the store (an area not built yet) is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from fakeservice.core.store import Store
    from fakeservice.host import Host as FakeService

Row = dict[str, Any]
MAX_ROWS = 50


@attrs.frozen
class Panel:
    key: str
    title: str
    columns: tuple[str, ...]
    rows: Callable[[FakeService, int], list[Row]]
    table: str
    index: str = "all"
    order: int = 100

    def count(self, service: FakeService) -> int:
        table = service.store.tables[self.table]
        return table.select(self.index).count()

    def newest(self, service: FakeService, limit: int) -> list[Any]:
        table = service.store.tables[self.table]
        return table.select(self.index, reverse=True).slice(0, limit)

    def to_json(self, service: FakeService, limit: int = MAX_ROWS) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "columns": list(self.columns),
            "count": self.count(service),
            "rows": self.rows(service, limit),
        }


def newest(service: FakeService, key: str, limit: int) -> list[Any]:
    """The newest records of the panel ``key`` (at most ``limit``)."""
    return service.composition.panels[key].newest(service, limit)


def project_path(store: Store, project_id: int) -> str | int:
    """A project's ``path_with_namespace`` (its id once the project is gone)."""
    project = store.tables["projects"].get(project_id)
    return project.path_with_namespace if project is not None else project_id


def panels_state(service: FakeService, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
    """Every panel whose table exists, in order, with its newest rows."""
    found = sorted(service.composition.panels.values(), key=lambda panel: (panel.order, panel.key))
    with service.store.lock:
        return [p.to_json(service, limit) for p in found if p.table in service.store.tables]
