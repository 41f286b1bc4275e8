"""Scenario key ``pipeline_triggers`` on projects: trigger tokens with their owner.

.. code-block:: yaml

    projects:
      - path: acme/website
        pipeline_triggers:
          - {description: deploy bot, owner: alice, token: glptt-deploy-bot}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.ci.triggers import models as model
from fakeservice.core.clock import as_time
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import STR, TIME, Field, ListOf, Record
from fakeservice.users.models import find_by_username

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

TRIGGER = Record(
    "pipeline_trigger",
    {
        "description": Field(STR, "what it is for", required=True),
        "owner": Field(STR, "username of its owner (it acts as them)", required=True),
        "token": Field(STR, "the secret clients send (default: derived, `glptt-` and 40 hex)"),
        "expires_at": Field(TIME, "when it stops working (default never)"),
    },
    "A pipeline trigger token of a project.",
)


def load(service: FakeService, project: Any, value: Any, where: str) -> None:
    """``projects[].pipeline_triggers``."""
    store, now = service.store, service.clock.now()
    for index, spec in enumerate(value or []):
        here = f"{where}[{index}]"
        owner = find_by_username(store, str(spec["owner"]))
        if owner is None:
            raise ScenarioError([(f"{here}.owner", f"unknown user {spec['owner']!r}")])
        secret = spec.get("token")
        if secret is not None and (not str(secret) or model.by_token(store, str(secret))):
            raise ScenarioError([(f"{here}.token", f"token {secret!r} is empty or used twice")])
        expires = spec.get("expires_at")
        model.create(
            store,
            project.id,
            owner.id,
            now,
            description=str(spec["description"]),
            token=None if secret is None else str(secret),
            expires_at=None if expires is None else as_time(expires),
        )


def register(found: Sections) -> None:
    """Declare this module's scenario key."""
    found.register_project_section(
        "pipeline_triggers", load, schema=ListOf(TRIGGER), doc="pipeline trigger tokens"
    )
