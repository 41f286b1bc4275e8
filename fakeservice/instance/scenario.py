"""The ``instance`` scenario section: plan, repository storages, application settings,
feature flags (booleans, as the top-level ``features`` key sets them) and background mode.

.. code-block:: yaml

    instance:
      plan: ultimate                 # free, premium or ultimate (default)
      self_managed: true
      geo_node_name: fakeservice     # the Geo node that is this instance
      storages: [default, storage2]  # the first is where repositories live by default
      settings:
        repository_storages_weighted: {default: 100, storage2: 0}
        max_import_size: 50
      features: {import_project_from_remote_file: true}
      background: {mode: timed, step_seconds: 5}   # storage moves, exports, imports

Settings are validated as ``PUT /application/settings`` validates them; a project whose
``repository_storage`` is not a declared storage is reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.features.definitions import DEFINITIONS
from fakeservice.features.models import set_boolean
from fakeservice.instance import settings
from fakeservice.instance.models import BACKGROUND_MODES, PLANS, instance
from fakeservice.projects.models import projects
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.schema import (
    ANY,
    BOOL,
    STR,
    Choice,
    Field,
    ListOf,
    MapOf,
    Range,
    Record,
)
from fakeservice.web.params import validate

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

INSTANCE = Record(
    "instance",
    {
        "plan": Field(Choice(PLANS), "the instance's plan: free, premium or ultimate (default)"),
        "self_managed": Field(BOOL, "a self-managed instance (default true)"),
        "geo_node_name": Field(STR, "the Geo node that is this instance (default `fakeservice`)"),
        "storages": Field(ListOf(STR), "repository storage names (default `[default]`)"),
        "settings": Field(
            MapOf(ANY, keys=tuple(settings.SETTINGS)), "application settings to start with"
        ),
        "features": Field(
            MapOf(BOOL, keys=tuple(DEFINITIONS)), "feature flags (all off by default)"
        ),
        "background": Field(
            Record(
                "background",
                {
                    "mode": Field(Choice(BACKGROUND_MODES), "instant (default), timed or manual"),
                    "step_seconds": Field(
                        Range(0, integer=False), "seconds per step in timed mode (10)"
                    ),
                },
            ),
            "how storage moves, exports and imports run",
        ),
    },
    "The instance itself.",
)


def _error(where: str, message: str) -> ScenarioError:
    return ScenarioError([(where, message)])


def _storages(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise _error("instance.storages", "must list at least one storage name")
    names = tuple(str(name) for name in value)
    if len(set(names)) != len(names):
        raise _error("instance.storages", "names must be unique")
    return names


def _settings(service: FakeService, value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _error("instance.settings", "must be a mapping")
    try:
        checked = validate(settings.PARAMS, dict(value))
    except ApiError as error:
        raise _error("instance.settings", str(error.body.get("error"))) from error
    changes = settings.normalized(checked)
    errors = settings.model_errors(service.store, changes)
    if errors:
        name, messages = next(iter(errors.items()))
        raise _error(f"instance.settings.{name}", "; ".join(messages))
    return changes


def load_instance(service: FakeService, data: Mapping[str, Any]) -> None:
    """Apply ``instance``: storages first, then settings (their weights name storages)."""
    spec = data.get("instance")
    if spec is None:
        return
    if not isinstance(spec, Mapping):
        raise _error("instance", "must be a mapping")
    store = service.store
    record = instance(store)
    if "plan" in spec:
        if spec["plan"] not in PLANS:
            raise _error("instance.plan", f"must be one of {', '.join(PLANS)}")
        alias = data.get("plan")
        if alias is not None and str(alias).lower() != spec["plan"]:
            raise _error("instance.plan", f"disagrees with the top-level plan {alias!r}")
        record.plan = spec["plan"]
    if "self_managed" in spec:
        record.self_managed = bool(spec["self_managed"])
    if spec.get("geo_node_name"):
        record.geo_node_name = str(spec["geo_node_name"])
    if "storages" in spec:
        record.storages = _storages(spec["storages"])
        record.settings.pop("repository_storages_weighted", None)
    if "settings" in spec:
        record.settings.update(_settings(service, spec["settings"]))
    for name, enabled in (spec.get("features") or {}).items():
        if name not in DEFINITIONS:
            raise _error(f"instance.features.{name}", "is not a known feature flag")
        set_boolean(store, name, bool(enabled))
    background = spec.get("background") or {}
    if background.get("mode") is not None:
        if background["mode"] not in BACKGROUND_MODES:
            raise _error("instance.background.mode", "must be instant, timed or manual")
        record.background_mode = background["mode"]
    if background.get("step_seconds") is not None:
        record.step_seconds = float(background["step_seconds"])
    used = set(projects(store).sorted["storage"].parts) - set(record.storages)
    if used:
        raise _error(
            "instance.storages",
            f"projects live on undeclared storages: {', '.join(sorted(map(str, used)))}",
        )


def register(found: Sections) -> None:
    """Declare the top-level ``instance`` key."""
    found.register_section(
        "instance", load_instance, schema=INSTANCE, doc="plan, storages and settings"
    )
