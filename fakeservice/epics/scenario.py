"""Epics in scenarios: the ``epics`` key of ``groups[]`` (and of subgroups).

.. code-block:: yaml

    groups:
      - path: acme
        epics:
          - title: Launch
            author: alice
            labels: [roadmap]
            start_date_fixed: "2026-02-01"     # sets start_date_is_fixed
            children:                          # nested epics of the same group
              - {title: Website, state: closed}
          - {title: Secret plan, confidential: true, parent: "acme&1"}

``parent`` names an epic as ``<group path>&<iid>`` (a group's epics get iids 1, 2, ...
in the order they are listed, children right after their parent). The author defaults
to the group's first Owner, else the first administrator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.clock import as_time
from fakeservice.core.errors import ApiError
from fakeservice.epics import models
from fakeservice.epics.machines import EPIC_MACHINE
from fakeservice.groups.models import Namespace, find_group
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import BOOL, DATE, STR, TIME, Choice, Field, ListOf, Record
from fakeservice.users.models import users

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

EPIC = Record(
    "epic",
    {
        "title": Field(STR, "the epic's title", required=True),
        "description": Field(STR, ""),
        "author": Field(STR, "a username (default: the group's first Owner or an admin)"),
        "labels": Field(ListOf(STR), "label names"),
        "confidential": Field(BOOL, ""),
        "state": Field(Choice(("opened", "closed")), "default opened"),
        "start_date_fixed": Field(DATE, "a fixed start date"),
        "due_date_fixed": Field(DATE, "a fixed due date"),
        "created_at": Field(TIME, "default: the clock's time"),
        "parent": Field(STR, "the parent epic as `<group path>&<iid>`"),
    },
)
EPIC.fields["children"] = Field(ListOf(EPIC), "child epics in the same group")


def _error(where: str, message: str) -> ScenarioError:
    return ScenarioError([(where, message)])


def _author(service: FakeService, group: Namespace, spec: Mapping[str, Any], where: str) -> int:
    if spec.get("author") is not None:
        return named_user(service.store, spec["author"], f"{where}.author").id
    from fakeservice.members.models import NAMESPACE, OWNER, of_source

    for member in of_source(service.store, NAMESPACE, group.id):
        if member.access_level >= OWNER:
            return member.user_id
    admins = list(users(service.store).select("admins", [True]))
    if not admins:
        raise _error(f"{where}.author", "no author given and no Owner or administrator to use")
    return admins[0].id


def epic_id(service: FakeService, text: Any, where: str, *, key: str = "parent") -> int:
    """The id of the epic ``<group path>&<iid>`` (a scenario error at ``where.key``)."""
    path, _, iid = str(text).rpartition("&")
    group = find_group(service.store, path)
    epic = models.find(service.store, group, int(iid)) if group and iid.isdigit() else None
    if epic is None:
        raise _error(f"{where}.{key}", f"no epic {text!r} (write <group path>&<iid>)")
    return epic.id


def _date(value: Any, where: str) -> Any:
    import datetime as dt

    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as error:
        raise _error(where, "must be a date (YYYY-MM-DD)") from error


def _load_one(
    service: FakeService, group: Namespace, spec: Any, where: str, parent_id: int | None
) -> None:
    if not isinstance(spec, Mapping) or not spec.get("title"):
        raise _error(where, "title is required")
    fields: dict[str, Any] = {
        "title": str(spec["title"]),
        "description": spec.get("description"),
        "labels": [str(label) for label in spec.get("labels") or []],
        "confidential": bool(spec.get("confidential", False)),
        "parent_id": epic_id(service, spec["parent"], where) if spec.get("parent") else parent_id,
    }
    for kind in ("start", "due"):
        value = spec.get(f"{kind}_date_fixed")
        if value is not None:
            fields[f"{kind}_date_fixed"] = _date(value, f"{where}.{kind}_date_fixed")
            fields[f"{kind}_date_is_fixed"] = True
    if spec.get("created_at") is not None:
        fields["created_at"] = as_time(spec["created_at"])
    now = service.clock.now()
    try:
        epic = models.create_epic(
            service.store, group, _author(service, group, spec, where), now, fields
        )
    except ApiError as error:
        raise _error(where, str(error.body.get("message"))) from error
    if spec.get("state", "opened") == "closed":
        EPIC_MACHINE.fire(epic, "close", now=now, user_id=epic.author_id)
        models.epics(service.store).reindex(epic)
    for index, child in enumerate(spec.get("children") or []):
        _load_one(service, group, child, f"{where}.children[{index}]", epic.id)


def load_epics(service: FakeService, group: Namespace, value: Any, where: str) -> None:
    """``groups[].epics``: create each epic (and its children) in order."""
    if not isinstance(value, list):
        raise _error(where, "must be a list")
    for index, spec in enumerate(value):
        _load_one(service, group, spec, f"{where}[{index}]", None)


def register(found: Sections) -> None:
    """Declare ``groups[].epics``."""
    found.register_group_section("epics", load_epics, schema=ListOf(EPIC), doc="the group's epics")
