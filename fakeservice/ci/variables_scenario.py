"""Scenario keys of CI/CD variables: ``variables`` on projects and groups, and the
top-level ``ci_variables`` (instance variables), each a list of variables as the API
takes them (validated by the same model rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.ci import variables_models as model
from fakeservice.core.errors import ApiError
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import BOOL, STR, Choice, Field, ListOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

_FIELDS = {
    "key": Field(STR, "letters, digits and `_`", required=True),
    "value": Field(
        STR, "the value (masked ones: 8+ characters of `a-zA-Z0-9_+=/@:.~-`)", required=True
    ),
    "variable_type": Field(Choice(model.VARIABLE_TYPES), "`env_var` (default) or `file`"),
    "protected": Field(BOOL, "only for protected refs (default false)"),
    "masked": Field(BOOL, "masked in job logs (default false)"),
    "raw": Field(BOOL, "not expanded (default false)"),
    "description": Field(STR, "a description"),
}
SCOPED = Record(
    "ci_variable",
    {**_FIELDS, "environment_scope": Field(STR, "environments it applies to (default `*`)")},
    "A CI/CD variable of a project or group.",
)
INSTANCE = Record("instance_ci_variable", _FIELDS, "An instance CI/CD variable.")
NAMES = (*_FIELDS, "environment_scope")


def _load(service: FakeService, owner: model.Owner, value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise ScenarioError([(where, "must be a list")])
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(spec, Mapping):
            raise ScenarioError([(here, "must be a mapping")])
        fields = {k: spec[k] for k in NAMES if k in spec}
        fields["key"], fields["value"] = str(spec.get("key", "")), str(spec.get("value", ""))
        try:
            model.create(service.store, owner, **fields)
        except ApiError as error:
            raise ScenarioError([(here, _text(error.body))]) from error


def _text(body: Any) -> str:
    """``{"message": {"value": ["is invalid"]}}`` -> ``value is invalid``."""
    message = body.get("message") if isinstance(body, Mapping) else body
    if isinstance(message, Mapping):
        return "; ".join(f"{k} {m}" for k, found in message.items() for m in found)
    return str(message)


def load_project_variables(service: FakeService, project: Any, value: Any, where: str) -> None:
    """``projects[].variables``."""
    _load(service, ("project", project.id), value, where)


def load_group_variables(service: FakeService, group: Any, value: Any, where: str) -> None:
    """``groups[].variables``."""
    _load(service, ("group", group.id), value, where)


def load_instance_variables(service: FakeService, data: Mapping[str, Any]) -> None:
    """``ci_variables``: instance variables."""
    _load(service, model.INSTANCE, data["ci_variables"], "ci_variables")


def register(found: Sections) -> None:
    """Declare this module's scenario keys."""
    found.register_project_section(
        "variables",
        load_project_variables,
        schema=ListOf(SCOPED),
        doc="CI/CD variables of the project",
    )
    found.register_group_section(
        "variables", load_group_variables, schema=ListOf(SCOPED), doc="CI/CD variables of the group"
    )
    found.register_section(
        "ci_variables",
        load_instance_variables,
        schema=ListOf(INSTANCE),
        doc="instance CI/CD variables",
    )
