"""Access requests in scenarios: the ``access_requests`` key of ``projects[]`` and
``groups[]``.

.. code-block:: yaml

    groups:
      - path: acme
        access_requests:
          - {user: dev001, requested_at: "2026-01-05T09:00:00Z"}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.clock import as_time
from fakeservice.members.models import NAMESPACE, PROJECT, find_member
from fakeservice.members.requests import add_request, find_request
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import STR, TIME, Field, ListOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

ACCESS_REQUEST = Record(
    "access_request",
    {
        "user": Field(STR, "username of the requester (not a direct member)", required=True),
        "requested_at": Field(TIME, "default: the scenario's start"),
    },
    "A pending request to join a project or group.",
)


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        store = service.store
        for index, item in enumerate(value or []):
            at = f"{where}[{index}]"
            user = named_user(store, item.get("user"), at)
            if find_member(store, kind, record.id, user.id) is not None:
                raise ScenarioError([(at, f"{user.username} is already a member")])
            if find_request(store, kind, record.id, user.id) is not None:
                raise ScenarioError([(at, f"{user.username} already asked")])
            when = item.get("requested_at")
            at_time = service.clock.now() if when is None else as_time(when)
            add_request(store, at_time, kind=kind, source_id=record.id, user_id=user.id)

    return load


def register(found: Sections) -> None:
    """Declare ``access_requests`` on projects and groups."""
    schema = ListOf(ACCESS_REQUEST)
    doc = "pending access requests"
    found.register_project_section("access_requests", _loader(PROJECT), schema=schema, doc=doc)
    found.register_group_section("access_requests", _loader(NAMESPACE), schema=schema, doc=doc)
