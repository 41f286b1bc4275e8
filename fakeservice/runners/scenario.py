"""Runners in scenarios: the top-level ``runners`` key, and the built-in instance runner.

Every service starts with one instance runner (id 1, ``fakeservice runner``), the one
jobs ran on before runners were records. A scenario's ``runners`` replaces it:

.. code-block:: yaml

    runners:
      - {description: shared docker, tags: [docker]}              # an instance runner
      - {type: group, group: acme, description: acme runners, paused: true}
      - {type: project, project: acme/website, projects: [acme/platform/api],
         tags: [deploy], run_untagged: false, access_level: ref_protected,
         token: website-runner-token, contacted_at: null}
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.clock import as_time
from fakeservice.core.errors import ValidationFailed
from fakeservice.groups.models import find_group
from fakeservice.projects.models import find_project
from fakeservice.runners import models
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import (
    BOOL,
    INT,
    STR,
    TIME,
    Choice,
    Field,
    ListOf,
    Nullable,
    Record,
    only_with,
)

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

BUILTIN_TOKEN = "fakeservice-builtin-runner"
TYPES = {"instance": models.INSTANCE, "group": models.GROUP, "project": models.PROJECT}

RUNNER = Record(
    "registered_runner",
    {
        "type": Field(Choice(tuple(TYPES)), "instance (default), group or project"),
        "group": Field(STR, "the group of a group runner (full path)"),
        "project": Field(STR, "the owner project of a project runner (path)"),
        "projects": Field(ListOf(STR), "more projects a project runner is enabled on"),
        "description": Field(STR, ""),
        "token": Field(STR, "its authentication token (default: generated)"),
        "tags": Field(ListOf(STR), "the tags it runs"),
        "run_untagged": Field(BOOL, "runs untagged jobs (default true)"),
        "paused": Field(BOOL, "a paused runner picks no job up"),
        "locked": Field(BOOL, "cannot be enabled on other projects"),
        "access_level": Field(Choice(models.ACCESS_LEVELS), "ref_protected: protected refs only"),
        "maximum_timeout": Field(INT, "seconds (at least 600)"),
        "maintenance_note": Field(STR, ""),
        "name": Field(STR, "as the runner reports it"),
        "version": Field(STR, "as the runner reports it"),
        "contacted_at": Field(Nullable(TIME), "default: when the scenario loads; null: never"),
    },
    "A runner of the instance, a group or a project; jobs run on the runners.",
    rules=(only_with("project", "projects"),),
)


def add_builtin(service: FakeService) -> None:
    """The service extension: the built-in instance runner, before any scenario loads."""
    now = service.clock.now()
    models.create_runner(
        service.store,
        now,
        runner_type=models.INSTANCE,
        token=BUILTIN_TOKEN,
        fields={"description": "fakeservice runner"},
        info={"name": "fakeservice-runner", "version": "17.0.0"},
        contacted_at=now,
    )


def _drop_builtin(service: FakeService) -> None:
    store = service.store
    table = models.runners(store)
    builtin = table.by("token", BUILTIN_TOKEN)
    if builtin is not None:
        table.delete(builtin)
    if not len(table):
        store.sequences["runners"] = 0


def _owner(service: FakeService, item: Mapping[str, Any], at: str) -> dict[str, Any]:
    kind = TYPES[str(item.get("type", "instance")).lower()]
    out: dict[str, Any] = {"runner_type": kind}
    if kind == models.GROUP:
        group = find_group(service.store, str(item.get("group") or ""))
        if group is None:
            raise ScenarioError([(f"{at}.group", "a group runner needs a known group")])
        out["group_id"] = group.id
    elif kind == models.PROJECT:
        names = [item.get("project"), *(item.get("projects") or [])]
        ids: list[int] = []
        for index, name in enumerate(names):
            project = find_project(service.store, str(name or ""))
            if project is None:
                where = f"{at}.project" if index == 0 else f"{at}.projects[{index - 1}]"
                raise ScenarioError([(where, f"unknown project {name!r}")])
            ids.append(project.id)
        out["project_ids"] = tuple(dict.fromkeys(ids))
    elif item.get("group") or item.get("project"):
        raise ScenarioError([(at, "group and project are for group and project runners")])
    return out


def _contacted(item: Mapping[str, Any], now: dt.datetime) -> dt.datetime | None:
    if "contacted_at" not in item:
        return now
    value = item["contacted_at"]
    if value is None:
        return None
    return as_time(value)  # a time without a zone is UTC


def load(service: FakeService, data: Mapping[str, Any]) -> None:
    """Replace the built-in runner with the scenario's runners."""
    _drop_builtin(service)
    now = service.clock.now()
    for index, item in enumerate(data.get("runners") or []):
        at = f"runners[{index}]"
        token = str(item.get("token") or "") or models.new_token(service.store)
        if models.runners(service.store).by("token", token) is not None:
            raise ScenarioError([(f"{at}.token", f"token {token!r} is used twice")])
        fields: dict[str, Any] = {
            "description": str(item.get("description", "")),
            "tag_list": [str(tag) for tag in item.get("tags") or []],
        }
        for name in ("run_untagged", "locked", "access_level", "maximum_timeout"):
            if name in item:
                fields[name] = item[name]
        if item.get("maintenance_note") is not None:
            fields["maintenance_note"] = str(item["maintenance_note"])
        if "paused" in item:
            fields["active"] = not item["paused"]
        try:
            models.create_runner(
                service.store,
                now,
                token=token,
                fields=fields,
                info={"name": item.get("name"), "version": item.get("version")},
                contacted_at=_contacted(item, now),
                **_owner(service, item, at),
            )
        except ValidationFailed as error:
            raise ScenarioError([(at, str(error.body["message"]))]) from None


def register(found: Sections) -> None:
    found.register_section("runners", load, schema=ListOf(RUNNER), doc="CI runners")
