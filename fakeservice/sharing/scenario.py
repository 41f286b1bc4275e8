"""Group shares in scenarios: the ``shared_with`` key of ``groups[]`` (projects have
their own ``shared_with`` key, read with the project).

.. code-block:: yaml

    groups:
      - path: acme/platform
        shared_with:
          - {group: oss, role: reporter, expires_at: 2027-01-01}
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.records import role_level
from fakeservice.scenarios.references import named_group
from fakeservice.scenarios.schema import DATE, STR, Field, ListOf, Record
from fakeservice.scenarios.spec import ROLE
from fakeservice.sharing import models

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

SHARE = Record(
    "group_share",
    {
        "group": Field(STR, "the invited group's full path", required=True),
        "role": Field(ROLE, "the invited group's maximum role (default developer)"),
        "expires_at": Field(DATE, ""),
    },
)


def load(service: FakeService, group: Namespace, value: Any, where: str) -> None:
    store = service.store
    for index, item in enumerate(value or []):
        here = f"{where}[{index}]"
        invited = named_group(store, str(item.get("group")), here)
        level = role_level(item.get("role", "developer"), here)
        try:
            models.group_share_errors(store, group, invited)
        except ApiError as error:
            raise ScenarioError([(here, str(error.body["message"]))]) from None
        expires = item.get("expires_at")
        if expires is not None and not isinstance(expires, dt.date):
            expires = dt.date.fromisoformat(str(expires))
        models.share(store, namespaces(store), group, invited, level, expires)


def register(found: Sections) -> None:
    """Declare ``shared_with`` on groups."""
    found.register_group_section(
        "shared_with", load, schema=ListOf(SHARE), doc="groups this group is shared with"
    )
