"""Scenario key ``pipeline_schedules`` on projects: a list of schedules as the API takes
them, each with its ``owner`` (a username) and its
``variables`` (validated by the same model rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.ci.schedules import models as model
from fakeservice.core.errors import ApiError
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import BOOL, STR, Choice, Field, ListOf, Record
from fakeservice.users.models import find_by_username

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

VARIABLE = Record(
    "pipeline_schedule_variable",
    {
        "key": Field(STR, "the variable's key", required=True),
        "value": Field(STR, "its value", required=True),
        "variable_type": Field(Choice(("env_var", "file")), "`env_var` (default) or `file`"),
    },
    "A variable of the pipelines a schedule creates.",
)
SCHEDULE = Record(
    "pipeline_schedule",
    {
        "description": Field(STR, "what it is for", required=True),
        "ref": Field(STR, "the branch or tag it runs", required=True),
        "cron": Field(STR, "five-field cron expression", required=True),
        "cron_timezone": Field(STR, "IANA time zone of the cron (default `UTC`)"),
        "active": Field(BOOL, "whether it runs on its own (default true)"),
        "owner": Field(STR, "username of its owner", required=True),
        "variables": Field(ListOf(VARIABLE), "variables of its pipelines"),
    },
    "A pipeline schedule of a project.",
)
FIELDS = ("description", "ref", "cron", "cron_timezone", "active")


def _owner(service: FakeService, spec: Mapping[str, Any], where: str) -> int:
    user = find_by_username(service.store, str(spec["owner"]))
    if user is None:
        raise ScenarioError([(f"{where}.owner", f"unknown user {spec['owner']!r}")])
    return user.id


def load(service: FakeService, project: Any, value: Any, where: str) -> None:
    """``projects[].pipeline_schedules``."""
    store, now = service.store, service.clock.now()
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        fields = {k: spec[k] for k in FIELDS if k in spec}
        try:
            schedule = model.create(store, project.id, _owner(service, spec, here), now, **fields)
            for variable in spec.get("variables") or ():
                model.add_variable(store, schedule, **dict(variable))
        except ApiError as error:
            raise ScenarioError([(here, str(error.body.get("message")))]) from error


def register(found: Sections) -> None:
    """Declare this module's scenario key."""
    found.register_project_section(
        "pipeline_schedules", load, schema=ListOf(SCHEDULE), doc="pipeline schedules of the project"
    )
