"""Issue boards in scenarios: the ``boards`` key of ``projects[]`` and of ``groups[]``,
each board with its label lists (label names the project or group can use, in order).

.. code-block:: yaml

    projects:
      - path: acme/website
        labels: [{name: todo}, {name: doing}]
        boards:
          - {name: Development, lists: [todo, doing]}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.boards import models
from fakeservice.labels import models as labels
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import STR, Field, ListOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

BOARD = Record(
    "board",
    {
        "name": Field(STR, "the board's name", required=True),
        "lists": Field(ListOf(STR), "label names, one list each, in order"),
    },
    "An issue board with its label lists.",
)


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        store = service.store
        owners = (
            labels.owners_of_project(store, record)
            if kind == labels.PROJECT
            else labels.owners_of_group(store, record.id)
        )
        for index, item in enumerate(value or []):
            names = [str(name) for name in item.get("lists") or []]
            found = [labels.find_by_name(store, owners, name) for name in names]
            missing = [name for name, label in zip(names, found, strict=True) if label is None]
            if missing:
                raise ScenarioError([(f"{where}[{index}].lists", f"no label {missing[0]!r}")])
            board = models.create_board(store, (kind, record.id), str(item["name"]), service.now())
            for label in found:
                if label is not None:
                    models.create_list(store, board, label.id)

    return load


def register(found: Sections) -> None:
    """Declare ``boards`` on projects and groups."""
    for kind, declare in (
        (labels.PROJECT, found.register_project_section),
        (labels.GROUP, found.register_group_section),
    ):
        declare("boards", _loader(kind), schema=ListOf(BOARD), doc="issue boards")
