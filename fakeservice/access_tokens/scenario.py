"""Group access tokens in scenarios: the ``access_tokens`` key of ``groups[]`` (projects
have the same key, declared with the project records).

.. code-block:: yaml

    groups:
      - path: acme
        access_tokens:
          - {token: acme-bot-token, name: release bot, role: developer, scopes: [read_api]}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.access_tokens.models import create_resource_token
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.records import _date, role_level
from fakeservice.scenarios.schema import ListOf
from fakeservice.scenarios.spec import PROJECT_TOKEN
from fakeservice.tokens.models import find_secret

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections


def load_group_tokens(service: FakeService, record: Any, value: Any, where: str) -> None:
    for index, item in enumerate(value or []):
        at = f"{where}[{index}]"
        secret = item.get("token")
        if not secret:
            raise ScenarioError([(at, "token is required")])
        if find_secret(service.store, str(secret)) is not None:
            raise ScenarioError([(at, f"token {secret!r} is used twice")])
        create_resource_token(
            service.store,
            service.clock.now(),
            kind="group",
            resource_id=record.id,
            name=str(item.get("name", "group token")),
            scopes=list(item.get("scopes") or ["api"]),
            access_level=role_level(item.get("role", "maintainer"), at),
            expires_at=_date(item.get("expires_at")),
            secret=str(secret),
        )


def register(found: Sections) -> None:
    """Declare ``access_tokens`` on groups."""
    found.register_group_section(
        "access_tokens",
        load_group_tokens,
        schema=ListOf(PROJECT_TOKEN),
        doc="group access tokens (a bot user per token becomes a member)",
    )
