"""Feature flags in scenarios: the ``feature_flag_user_lists`` and ``feature_flags`` keys
of ``projects[]`` (user lists load first so that strategies can name them).

.. code-block:: yaml

    projects:
      - path: acme/website
        feature_flag_user_lists:
          - {name: beta testers, user_xids: "alice,bob"}
        feature_flags:
          - name: new_checkout
            description: the new checkout flow
            active: true
            strategies:
              - {name: flexibleRollout, parameters: {groupId: default, rollout: "25", stickiness: default}, scopes: [production]}
              - {name: gitlabUserList, user_list: beta testers, scopes: ["*"]}

Each record is made as the API makes it (same validation, same refusals).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.feature_flags import models
from fakeservice.feature_flags.records import user_lists
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import ANY, BOOL, STR, Field, ListOf, MapOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

USER_LIST = Record(
    "feature flag user list",
    {
        "name": Field(STR, "the list's name", required=True),
        "user_xids": Field(STR, "comma-separated user ids (`alice,bob`)", required=True),
    },
    "A feature flag user list.",
)
STRATEGY = Record(
    "feature flag strategy",
    {
        "name": Field(
            STR,
            "default, gradualRolloutUserId, userWithId, flexibleRollout or gitlabUserList",
            required=True,
        ),
        "parameters": Field(MapOf(ANY), "the strategy's parameters (default none)"),
        "user_list": Field(STR, "name of a user list of the project (gitlabUserList)"),
        "scopes": Field(ListOf(STR), "environment scopes (`production`, `review/*`, `*`)"),
    },
    "A feature flag strategy.",
)
FLAG = Record(
    "feature flag",
    {
        "name": Field(STR, "the flag's name", required=True),
        "description": Field(STR, ""),
        "active": Field(BOOL, "default true"),
        "strategies": Field(ListOf(STRATEGY), ""),
    },
    "A project feature flag.",
)


def _message(error: ApiError) -> str:
    body = error.body.get("message") if isinstance(error.body, dict) else error.body
    return ", ".join(body) if isinstance(body, list) else str(body)


def load_user_lists(service: FakeService, project: Any, value: Any, where: str) -> None:
    for index, item in enumerate(value or []):
        try:
            models.create_list(
                service.store,
                project.id,
                service.clock.now(),
                str(item["name"]),
                str(item["user_xids"]),
            )
        except ApiError as error:
            raise ScenarioError([(f"{where}[{index}]", _message(error))]) from None


def _strategy(service: FakeService, project: Any, spec: Any, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": str(spec["name"]),
        "parameters": dict(spec.get("parameters") or {}),
        "scopes": [{"environment_scope": str(s)} for s in spec.get("scopes") or []],
    }
    if spec.get("user_list") is not None:
        found = user_lists(service.store).by("name", (project.id, str(spec["user_list"])))
        if found is None:
            raise ScenarioError([(f"{where}.user_list", f"no user list {spec['user_list']!r}")])
        out["user_list_id"] = found.id
    return out


def load_flags(service: FakeService, project: Any, value: Any, where: str) -> None:
    for index, item in enumerate(value or []):
        here = f"{where}[{index}]"
        strategies = [
            _strategy(service, project, spec, f"{here}.strategies[{n}]")
            for n, spec in enumerate(item.get("strategies") or [])
        ]
        try:
            models.create_flag(
                service.store,
                project.id,
                service.clock.now(),
                name=str(item["name"]),
                description=item.get("description"),
                active=item.get("active") is not False,
                strategies=strategies,
            )
        except ApiError as error:
            raise ScenarioError([(here, _message(error))]) from None


def register(found: Sections) -> None:
    """Declare ``feature_flag_user_lists`` and ``feature_flags`` on projects."""
    found.register_project_section(
        "feature_flag_user_lists",
        load_user_lists,
        schema=ListOf(USER_LIST),
        doc="feature flag user lists",
    )
    found.register_project_section(
        "feature_flags", load_flags, schema=ListOf(FLAG), doc="feature flags (after the user lists)"
    )
