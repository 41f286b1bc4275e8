"""The ``journal`` key of scenarios: how many requests the journal keeps.

.. code-block:: yaml

    journal:
      capacity: 50000   # entries kept (a ring: the oldest are forgotten); default 10,000
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.control.journal import MAX_CAPACITY
from fakeservice.scenarios.schema import Field, Range, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

JOURNAL = Record(
    "journal",
    {
        "capacity": Field(
            Range(1, MAX_CAPACITY),
            "how many requests the journal keeps (the oldest are forgotten first); 10000",
        )
    },
)


def load_journal(service: FakeService, data: Mapping[str, Any]) -> None:
    capacity = (data.get("journal") or {}).get("capacity")
    if capacity is not None:
        service.journal.resize(capacity)


def register(found: Sections) -> None:
    """Declare this module's scenario keys."""
    found.register_section(
        "journal", load_journal, schema=JOURNAL, doc="the request journal (a bounded ring)"
    )
