"""Protected environments (seed 000 §2.7, §4.5): records and the operations on them.

A protected environment names an environment of a project and lists who may deploy to
it (``deploy_access_levels``) and, optionally, who must approve deployments
(``approval_rules``). Each entry is a role (30 Developers + Maintainers, 40 Maintainers,
60 Administrators), one user or one group.

As the real service does, entries naming a user without at least the Developer role in
the project, or a group the project is not shared with, are dropped before saving; when
no deploy entry is left the environment is refused with ``422`` and the model's full
messages (``Deploy access levels is too short (minimum is 1 character)``). A name that is
already protected answers ``409 Protected environment '<name>' already exists``.

Entries whose user or group no longer exists are left out of every answer (the real
service deletes them with their user or group).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import attrs

from fakeservice.core.errors import Conflict, Unprocessable
from fakeservice.core.store import Selection, Store, Table
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.members.access import project_access, share_active
from fakeservice.members.models import DEVELOPER
from fakeservice.projects.models import Project
from fakeservice.users.models import User, users

DEVELOPER_ACCESS, MAINTAINER_ACCESS, ADMIN_ACCESS = 30, 40, 60
ACCESS_LEVELS = (DEVELOPER_ACCESS, MAINTAINER_ACCESS, ADMIN_ACCESS)
DESCRIPTIONS = {
    DEVELOPER_ACCESS: "Developers + Maintainers",
    MAINTAINER_ACCESS: "Maintainers",
    ADMIN_ACCESS: "Administrators",
}
# The level the real service stores on user and group deploy entries (its column default).
ENTRY_DEFAULT_LEVEL = MAINTAINER_ACCESS
DIRECT, ALL_INHERITED = 0, 1
GROUP_INHERITANCE_TYPES = (DIRECT, ALL_INHERITED)
MAX_APPROVALS = 5
DEFAULT_REQUIRED_APPROVALS = 1

TOO_FEW_DEPLOY_LEVELS = "Deploy access levels is too short (minimum is 1 character)"
BLANK_NAME = "Name can't be blank"


@attrs.frozen
class EntrySpec:
    """A requested entry: exactly one of a role level, a user id or a group id."""

    access_level: int | None = None
    user_id: int | None = None
    group_id: int | None = None
    group_inheritance_type: int = DIRECT
    required_approvals: int = DEFAULT_REQUIRED_APPROVALS


@attrs.define(slots=True)
class AccessEntry:
    """One deploy access level or approval rule of a protected environment."""

    id: int
    access_level: int | None
    user_id: int | None = None
    group_id: int | None = None
    group_inheritance_type: int = DIRECT
    required_approvals: int | None = None  # approval rules only


@attrs.define(slots=True)
class ProtectedEnvironment:
    id: int
    project_id: int
    name: str
    created_at: dt.datetime
    updated_at: dt.datetime
    deploy_access_levels: list[AccessEntry] = attrs.field(factory=list)
    approval_rules: list[AccessEntry] = attrs.field(factory=list)
    required_approval_count: int = 0


def protected_environments(store: Store) -> Table[ProtectedEnvironment]:
    return store.tables["protected_environments"]


def install(store: Store) -> None:
    table = store.table("protected_environments")
    table.add_unique("project_name", lambda p: (p.project_id, p.name))
    # a project's environments by name, as the real service lists them
    table.add_sorted("project", lambda p: p.project_id, lambda p: (p.name,))


def find(store: Store, project_id: int, name: str) -> ProtectedEnvironment | None:
    return protected_environments(store).by("project_name", (project_id, name))


def of_project(store: Store, project_id: int) -> Selection[ProtectedEnvironment]:
    """A project's protected environments ordered by name (a lazy, sliceable selection)."""
    return protected_environments(store).select("project", [project_id])


# -- who qualifies -------------------------------------------------------------------------


def live_user(store: Store, user_id: int | None) -> User | None:
    user = users(store).get(user_id)
    return None if user is None or user.deleted else user


def live_group(store: Store, group_id: int | None) -> Namespace | None:
    group = namespaces(store).get(group_id)
    return group if group is not None and group.is_group else None


def qualifies(store: Store, project: Project, spec: EntrySpec, now: dt.datetime) -> bool:
    """Whether an entry may be saved: a named group needs the project shared with it and a
    named user at least the Developer role in the project; a role level always qualifies."""
    if spec.group_id is not None:
        shared = any(
            share["group_id"] == spec.group_id and share_active(share, now)
            for share in project.shared_with_groups
        )
        if not shared or live_group(store, spec.group_id) is None:
            return False
    if spec.user_id is not None:
        user = live_user(store, spec.user_id)
        if user is None or project_access(store, user, project, now) < DEVELOPER:
            return False
    return True


def _entry(store: Store, spec: EntrySpec, *, approval: bool) -> AccessEntry:
    """A stored entry. Deploy entries naming a user or group keep the default level (40),
    as the real service's column does; approval rules keep what was given."""
    if approval:
        return AccessEntry(
            id=store.next_id("protected_environment_approval_rules"),
            access_level=spec.access_level,
            user_id=spec.user_id,
            group_id=spec.group_id,
            group_inheritance_type=spec.group_inheritance_type,
            required_approvals=spec.required_approvals,
        )
    role = spec.user_id is None and spec.group_id is None
    level = spec.access_level if role and spec.access_level is not None else ENTRY_DEFAULT_LEVEL
    return AccessEntry(
        id=store.next_id("protected_environment_deploy_access_levels"),
        access_level=level,
        user_id=spec.user_id,
        group_id=spec.group_id,
        group_inheritance_type=spec.group_inheritance_type,
    )


def model_errors(
    name: str, deploy: list[EntrySpec], rules: list[EntrySpec], required_approval_count: int
) -> list[str]:
    """The full messages of an invalid protected environment, in the model's order."""
    errors: list[str] = []
    if not deploy:
        errors.append(TOO_FEW_DEPLOY_LEVELS)
    for rule in rules:
        if rule.required_approvals < 1:
            errors.append("Approval rules required approvals must be greater than or equal to 1")
        elif rule.required_approvals > MAX_APPROVALS:
            errors.append(
                f"Approval rules required approvals must be less than or equal to {MAX_APPROVALS}"
            )
    if not name.strip():
        errors.append(BLANK_NAME)
    if required_approval_count < 0:
        errors.append("Required approval count must be greater than or equal to 0")
    elif required_approval_count > MAX_APPROVALS:
        errors.append(f"Required approval count must be less than or equal to {MAX_APPROVALS}")
    return list(dict.fromkeys(errors))


def protect(
    store: Store,
    project: Project,
    name: str,
    now: dt.datetime,
    *,
    deploy_access_levels: Iterable[EntrySpec],
    approval_rules: Iterable[EntrySpec] = (),
    required_approval_count: int = 0,
) -> ProtectedEnvironment:
    """Protect ``name`` in ``project``: 409 when it is protected, 422 when invalid.

    Entries that do not qualify (see :func:`qualifies`) are dropped first.
    """
    if find(store, project.id, name) is not None:
        raise Conflict(f"Protected environment '{name}' already exists")
    deploy = [spec for spec in deploy_access_levels if qualifies(store, project, spec, now)]
    rules = [spec for spec in approval_rules if qualifies(store, project, spec, now)]
    errors = model_errors(name, deploy, rules, required_approval_count)
    if errors:
        raise Unprocessable(errors)
    record = ProtectedEnvironment(
        id=store.next_id("protected_environments"),
        project_id=project.id,
        name=name,
        created_at=now,
        updated_at=now,
        deploy_access_levels=[_entry(store, spec, approval=False) for spec in deploy],
        approval_rules=[_entry(store, spec, approval=True) for spec in rules],
        required_approval_count=required_approval_count,
    )
    return protected_environments(store).insert(record)


def unprotect(store: Store, record: ProtectedEnvironment) -> None:
    protected_environments(store).delete(record)


def describe(store: Store, entry: AccessEntry) -> str | None:
    """``access_level_description``: the user's or group's name, else the role's wording."""
    if entry.user_id is not None:
        user = live_user(store, entry.user_id)
        return user.name if user is not None else None
    if entry.group_id is not None:
        group = live_group(store, entry.group_id)
        return group.name if group is not None else None
    return DESCRIPTIONS.get(entry.access_level) if entry.access_level is not None else None


def present(store: Store, entry: AccessEntry) -> bool:
    """Whether an entry's user and group still exist (role entries always do)."""
    if entry.user_id is not None and live_user(store, entry.user_id) is None:
        return False
    return not (entry.group_id is not None and live_group(store, entry.group_id) is None)


def entry_data(spec: Any) -> EntrySpec:
    """An :class:`EntrySpec` from a validated parameter hash."""
    return EntrySpec(
        access_level=spec.get("access_level"),
        user_id=spec.get("user_id"),
        group_id=spec.get("group_id"),
        group_inheritance_type=spec.get("group_inheritance_type") or DIRECT,
        required_approvals=(
            DEFAULT_REQUIRED_APPROVALS
            if spec.get("required_approvals") is None
            else spec["required_approvals"]
        ),
    )
