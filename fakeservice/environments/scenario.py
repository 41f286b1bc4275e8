"""Protected environments in scenarios: the ``protected_environments`` key of ``projects[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        shared_with: [{group: oss, role: developer}]
        protected_environments:
          - name: production
            deploy_access_levels:
              - {access_level: maintainer}   # or 30 / 40 / 60, developer / maintainer / admin
              - {user: alice}                # needs at least the Developer role
              - {group: oss}                 # the project must be shared with it
            required_approval_count: 1
            approval_rules: [{user: alice, required_approvals: 1}]

Unlike the API, which silently drops users and groups that do not qualify, the loader
reports them at their key: a scenario should say what it means. An environment named like
one already protected replaces it (so ``extends`` can override a base scenario).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.environments import models
from fakeservice.projects.models import Project
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_group, named_user
from fakeservice.scenarios.schema import (
    STR,
    Choice,
    Field,
    ListOf,
    Range,
    Record,
    at_least_one,
    exactly_one,
)
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

LEVEL_NAMES = {
    "developer": models.DEVELOPER_ACCESS,
    "maintainer": models.MAINTAINER_ACCESS,
    "admin": models.ADMIN_ACCESS,
}
LEVEL = Choice((*(str(level) for level in models.ACCESS_LEVELS), *LEVEL_NAMES))
_ENTRY_FIELDS = {
    "access_level": Field(LEVEL, "a role: 30/developer, 40/maintainer or 60/admin"),
    "user": Field(STR, "a username (at least Developer in the project)"),
    "group": Field(STR, "a group path (the project must be shared with it)"),
    "group_inheritance_type": Field(Range(0, 1), "0 direct members only (default), 1 inherited"),
}
DEPLOY_ENTRY = Record(
    "deploy access level",
    _ENTRY_FIELDS,
    rules=(exactly_one("access_level", "user", "group"),),
)
APPROVAL_RULE = Record(
    "approval rule",
    {
        **_ENTRY_FIELDS,
        "required_approvals": Field(Range(1, models.MAX_APPROVALS), "approvals needed (1)"),
    },
    rules=(at_least_one("access_level", "user", "group"),),
)
PROTECTED_ENVIRONMENT = Record(
    "protected environment",
    {
        "name": Field(STR, "the environment's name", required=True),
        "deploy_access_levels": Field(ListOf(DEPLOY_ENTRY), "who may deploy", required=True),
        "required_approval_count": Field(Range(0, models.MAX_APPROVALS), "approvals needed (0)"),
        "approval_rules": Field(ListOf(APPROVAL_RULE), "who may approve"),
    },
)
PROTECTED_ENVIRONMENTS = ListOf(PROTECTED_ENVIRONMENT)


def _error(where: str, message: str) -> ScenarioError:
    return ScenarioError([(where, message)])


def _level(value: Any, where: str) -> int:
    text = str(value).strip().lower()
    if not isinstance(value, bool) and text in LEVEL_NAMES:
        return LEVEL_NAMES[text]
    if not isinstance(value, bool) and text in {str(level) for level in models.ACCESS_LEVELS}:
        return int(text)
    raise _error(f"{where}.access_level", "must be 30, 40, 60, developer, maintainer or admin")


def _count(value: Any, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _error(where, "must be an integer")


def _entry(
    service: FakeService, project: Project, spec: Any, where: str, *, approval: bool
) -> models.EntrySpec:
    if not isinstance(spec, Mapping):
        raise _error(where, "must be a mapping")
    named = [key for key in ("access_level", "user", "group") if spec.get(key) is not None]
    if not named:
        rule = "at least" if approval else "exactly"
        raise _error(where, f"needs {rule} one of access_level, user, group")
    if not approval and len(named) > 1:
        raise _error(where, "needs exactly one of access_level, user, group")
    store = service.store
    user_id = group_id = None
    if spec.get("user") is not None:
        user_id = named_user(store, spec["user"], f"{where}.user").id
    if spec.get("group") is not None:
        group_id = named_group(store, spec["group"], f"{where}.group").id
    inheritance = spec.get("group_inheritance_type", models.DIRECT)
    if inheritance not in models.GROUP_INHERITANCE_TYPES:
        raise _error(f"{where}.group_inheritance_type", "must be 0 or 1")
    entry = models.EntrySpec(
        access_level=_level(spec["access_level"], where) if "access_level" in named else None,
        user_id=user_id,
        group_id=group_id,
        group_inheritance_type=inheritance,
        required_approvals=_count(
            spec.get("required_approvals", models.DEFAULT_REQUIRED_APPROVALS),
            f"{where}.required_approvals",
        ),
    )
    now = service.clock.now()
    if not models.qualifies(store, project, entry, now):
        if group_id is not None and not models.qualifies(
            store, project, models.EntrySpec(group_id=group_id), now
        ):
            raise _error(f"{where}.group", f"the project is not shared with {spec['group']!r}")
        raise _error(f"{where}.user", f"{spec['user']!r} needs at least the Developer role")
    return entry


def load_protected_environments(
    service: FakeService, project: Project, value: Any, where: str
) -> None:
    """``projects[].protected_environments``: protect each named environment."""
    if not isinstance(value, list):
        raise _error(where, "must be a list")
    store = service.store
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(spec, Mapping) or spec.get("name") in (None, ""):
            raise _error(here, "name is required")
        levels = spec.get("deploy_access_levels")
        if not isinstance(levels, list) or not levels:
            raise _error(f"{here}.deploy_access_levels", "must list at least one entry")
        rules = spec.get("approval_rules") or []
        if not isinstance(rules, list):
            raise _error(f"{here}.approval_rules", "must be a list")
        deploy = [
            _entry(service, project, item, f"{here}.deploy_access_levels[{i}]", approval=False)
            for i, item in enumerate(levels)
        ]
        approvals = [
            _entry(service, project, item, f"{here}.approval_rules[{i}]", approval=True)
            for i, item in enumerate(rules)
        ]
        name = str(spec["name"])
        existing = models.find(store, project.id, name)
        if existing is not None:
            models.unprotect(store, existing)
        try:
            models.protect(
                store,
                project,
                name,
                service.clock.now(),
                deploy_access_levels=deploy,
                approval_rules=approvals,
                required_approval_count=_count(
                    spec.get("required_approval_count", 0), f"{here}.required_approval_count"
                ),
            )
        except ApiError as error:
            message = error.body.get("message") if isinstance(error.body, dict) else error.body
            if isinstance(message, list):
                message = "; ".join(str(m) for m in message)
            raise _error(here, str(message)) from error


def register(found: Sections) -> None:
    """Declare ``projects[].protected_environments``."""
    found.register_project_section(
        "protected_environments",
        load_protected_environments,
        schema=PROTECTED_ENVIRONMENTS,
        doc="protected environments: who may deploy and approve",
    )
