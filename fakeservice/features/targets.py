"""The gate targets of ``POST /features/:name``: ``feature_group`` and the comma-separated
``user``, ``group``, ``namespace``, ``project`` and ``repository`` parameters, resolved to
the flipper ids the gates store (``User:<id>``, ``Group:<id>``,
``Namespaces::UserNamespace:<id>``, ``Project:<id>``, ``Repository:<path>``).

An unknown one fails the whole request before anything changes: 400
``<name> is not found!``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from fakeservice.core.errors import BadRequest
from fakeservice.core.store import Store
from fakeservice.groups.models import find_group, find_namespace
from fakeservice.projects.models import find_project
from fakeservice.users.models import find_by_username

TARGET_PARAMS = ("feature_group", "user", "group", "namespace", "project", "repository")


@attrs.frozen
class Target:
    key: str  # the flipper id, or the feature group's name
    label: str  # how messages name it
    group: bool = False  # a feature group rather than an actor


def _names(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _missing(name: str) -> BadRequest:
    return BadRequest(f"{name} is not found!")


def _user(store: Store, name: str) -> Target:
    user = find_by_username(store, name)
    if user is None:
        raise _missing(name)
    return Target(f"User:{user.id}", f"@{user.username}")


def _group(store: Store, name: str) -> Target:
    group = find_group(store, name) if not name.isdigit() else None
    if group is None:
        raise _missing(name)
    return Target(f"Group:{group.id}", f"@{group.full_path}")


def _namespace(store: Store, name: str) -> Target:
    namespace = find_namespace(store, name)
    if namespace is None:
        raise _missing(name)
    kind = "Group" if namespace.is_group else "Namespaces::UserNamespace"
    return Target(f"{kind}:{namespace.id}", namespace.full_path)


def _project(store: Store, name: str) -> Target:
    project = find_project(store, name) if not name.isdigit() else None
    if project is None:
        raise _missing(name)
    return Target(f"Project:{project.id}", project.path_with_namespace)


def _repository(store: Store, name: str) -> Target:
    path = name.removesuffix(".git")
    wiki = path.endswith(".wiki")
    project = find_project(store, path.removesuffix(".wiki")) if not path.isdigit() else None
    if project is None:
        raise _missing(name)
    full = project.path_with_namespace + (".wiki" if wiki else "")
    return Target(f"Repository:{full}", full)


_RESOLVERS = {
    "user": _user,
    "group": _group,
    "namespace": _namespace,
    "project": _project,
    "repository": _repository,
}


def gate_specified(params: Mapping[str, Any]) -> bool:
    return any(params.get(name) is not None for name in TARGET_PARAMS)


def resolve(store: Store, params: Mapping[str, Any]) -> list[Target]:
    """Every target the parameters name, in the service's order (feature group, users,
    projects, groups, namespaces, repositories)."""
    out: list[Target] = []
    if params.get("feature_group") is not None:
        name = params["feature_group"]
        out.append(Target(name, name, group=True))
    for kind in ("user", "project", "group", "namespace", "repository"):
        if params.get(kind) is not None:
            out.extend(_RESOLVERS[kind](store, name) for name in _names(params[kind]))
    return out
