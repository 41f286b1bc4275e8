"""Feature flags in scenarios: the top-level ``features`` key maps a flag's name to its
value (``true``, ``false``, a percentage) or to the parameters of ``POST /features/:name``.
Each entry is applied as that request would be (the same checks and messages).

.. code-block:: yaml

    features:
      import_project_from_remote_file: true
      new_navigation: 25                       # percentage of time
      beta_search: {value: 30, key: percentage_of_actors}
      early_access: {value: true, user: alice, group: acme}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.features.routes import SET_CONSTRAINTS, SET_PARAMS
from fakeservice.features.setting import set_feature
from fakeservice.features.targets import TARGET_PARAMS
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.schema import (
    BOOL,
    NUM,
    STR,
    Field,
    MapOf,
    OneOf,
    Record,
    exclusive,
)
from fakeservice.web.params import validate

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

GATE = Record(
    "feature gate",
    {
        "value": Field(OneOf((BOOL, NUM, STR)), "true, false or a percentage", required=True),
        "key": Field(STR, "percentage_of_actors or percentage_of_time (default)"),
        **{name: Field(STR, f"the {name} gate (comma-separated)") for name in TARGET_PARAMS},
        "force": Field(BOOL, "skip the flag name checks"),
    },
    "A gate of a feature flag, as POST /features/:name takes it.",
    rules=tuple(exclusive("key", name) for name in TARGET_PARAMS),
)
FEATURES = MapOf(OneOf((BOOL, NUM, GATE)))


def _params(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {"value": value}


def apply_feature(service: FakeService, name: str, spec: Any, where: str) -> None:
    """Set the flag ``name`` from a scenario value (see the module docstring)."""
    try:
        checked = validate(SET_PARAMS, {**_params(spec), "name": name}, SET_CONSTRAINTS)
        set_feature(service.store, name, checked)
    except ApiError as error:
        error.scenario_where = where  # type: ignore[attr-defined]
        raise


def load_features(service: FakeService, data: Mapping[str, Any]) -> None:
    spec = data.get("features") or {}
    if not isinstance(spec, Mapping):
        raise ScenarioError([("features", "must be a mapping of flag names")])
    for name, value in spec.items():
        apply_feature(service, str(name), value, f"features.{name}")


def register(found: Sections) -> None:
    """Declare the top-level ``features`` key."""
    found.register_section(
        "features", load_features, schema=FEATURES, doc="instance feature flags (`/features`)"
    )
