"""Deploy tokens in scenarios: the ``deploy_tokens`` key of ``projects[]`` and ``groups[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        deploy_tokens:
          - {token: website-deploy, name: pull, username: puller, scopes: [read_repository]}
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from fakeservice.core.clock import as_time
from fakeservice.core.errors import ValidationFailed
from fakeservice.deploy import tokens as model
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import STR, TIME, Choice, Field, ListOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

DEPLOY_TOKEN = Record(
    "deploy_token",
    {
        "token": Field(STR, "the secret clients send", required=True),
        "name": Field(STR, "default `deploy token`"),
        "username": Field(STR, "default `gitlab+deploy-token-<id>`"),
        "scopes": Field(ListOf(Choice(model.SCOPES)), "default `[read_repository]`"),
        "expires_at": Field(TIME, ""),
    },
    "A deploy token of a project or group (git clones with its username and secret).",
)


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        for index, item in enumerate(value or []):
            at = f"{where}[{index}]"
            secret = str(item.get("token") or "")
            if not secret or model.deploy_tokens(service.store).by("secret", secret):
                raise ScenarioError([(at, f"token {secret!r} is missing or used twice")])
            expires = item.get("expires_at")
            try:
                model.create_deploy_token(
                    service.store,
                    service.clock.now(),
                    owner_kind=kind,
                    owner_id=record.id,
                    name=str(item.get("name", "deploy token")),
                    scopes=list(item.get("scopes") or ["read_repository"]),
                    username=item.get("username"),
                    expires_at=_time(expires),
                    secret=secret,
                )
            except ValidationFailed as error:
                raise ScenarioError([(at, str(error.body["message"]))]) from None

    return load


def _time(value: Any) -> dt.datetime | None:
    return None if value is None else as_time(value)


def register(found: Sections) -> None:
    """Declare ``deploy_tokens`` on projects and groups."""
    schema = ListOf(DEPLOY_TOKEN)
    doc = "deploy tokens"
    found.register_project_section("deploy_tokens", _loader(model.PROJECT), schema=schema, doc=doc)
    found.register_group_section("deploy_tokens", _loader(model.GROUP), schema=schema, doc=doc)
