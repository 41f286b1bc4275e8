"""CI/CD variables of projects, groups and the instance (not in the spec; the real service
has them): records, the model's validation and the values a pipeline sees.

A variable belongs to one owner (``("project", id)``, ``("group", id)`` or
``("instance", 0)``); its key is unique per owner and environment scope. ``masked``
values must be at least 8 characters of the masking alphabet (one line, letters, digits
and ``_+=/@:.~-``), as the real service checks them. Pipelines see instance variables,
then the project's groups' (outermost first), then the project's own, then the
pipeline's: a later one wins. Protected variables reach only protected refs;
environment-scoped ones (a scope other than ``*``) are not part of pipeline-wide values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Selection, Store, Table
from fakeservice.projects.models import Project

VARIABLE_TYPES = ("env_var", "file")
MASKABLE = re.compile(r"[a-zA-Z0-9_+=/@:.~-]{8,}\Z")
KEY_FORMAT = re.compile(r"[a-zA-Z0-9_]+\Z")
KEY_MESSAGE = "can contain only letters, digits and '_'."
INSTANCE = ("instance", 0)
Owner = tuple[str, int]


@attrs.define(slots=True)
class Variable:
    id: int
    owner_kind: str  # project, group or instance
    owner_id: int
    key: str
    value: str
    variable_type: str = "env_var"
    protected: bool = False
    masked: bool = False
    raw: bool = False
    environment_scope: str = "*"
    description: str | None = None

    @property
    def owner(self) -> Owner:
        return (self.owner_kind, self.owner_id)


def variables(store: Store) -> Table[Variable]:
    return store.tables["ci_variables"]


def install(store: Store) -> None:
    table = store.table("ci_variables")
    table.add_unique("owner_key_scope", lambda v: (v.owner, v.key, v.environment_scope))
    table.add_sorted("owner", lambda v: v.owner, lambda v: (v.id,))


def of_owner(store: Store, owner: Owner) -> Selection[Variable]:
    return variables(store).select("owner", [owner])


def find(store: Store, owner: Owner, key: str, scope: str | None = None) -> Variable | None:
    """The owner's variable ``key`` (in ``scope`` when given, else the first by id)."""
    if scope is not None:
        return variables(store).by("owner_key_scope", (owner, key, scope))
    return next((v for v in of_owner(store, owner) if v.key == key), None)


def check(
    store: Store, fields: Mapping[str, Any], *, current: Variable | None = None, owner: Owner
) -> None:
    """The model's validation of a new or changed variable (400 with its messages)."""
    merged = {**(attrs.asdict(current) if current else {}), **fields}
    errors: dict[str, list[str]] = {}
    key = str(merged.get("key") or "")
    if not key:
        errors["key"] = ["can't be blank"]
    elif len(key) > 255:
        errors["key"] = ["is too long (maximum is 255 characters)"]
    elif not KEY_FORMAT.match(key):
        errors["key"] = [KEY_MESSAGE]
    value = merged.get("value")
    if value is None:
        errors["value"] = ["can't be blank"]
    elif merged.get("masked") and not MASKABLE.match(str(value)):
        errors["value"] = ["is invalid"]
    scope = merged.get("environment_scope") or "*"
    other = find(store, owner, key, scope) if key else None
    if other is not None and other is not current:
        errors.setdefault("key", []).append(f"({key}) has already been taken")
    if errors:
        raise ValidationFailed(errors)


def create(store: Store, owner: Owner, **fields: Any) -> Variable:
    check(store, fields, owner=owner)
    record = Variable(
        id=store.next_id("ci_variables"), owner_kind=owner[0], owner_id=owner[1], **fields
    )
    return variables(store).insert(record)


def change(store: Store, record: Variable, **fields: Any) -> Variable:
    check(store, fields, current=record, owner=record.owner)
    return variables(store).update(record, **fields)


def pipeline_values(store: Store, project: Project, ref: str) -> dict[str, str]:
    """The CI/CD variables a pipeline of ``project`` for ``ref`` sees."""
    from fakeservice.groups.models import namespaces, self_and_ancestor_ids
    from fakeservice.repository.protected import rules_for

    namespace = namespaces(store).rows[project.namespace_id]
    group_ids = self_and_ancestor_ids(store, namespace)[::-1] if namespace.is_group else []
    protected_ref = bool(rules_for(store, project.id, ref))
    out: dict[str, str] = {}
    owners = [INSTANCE, *(("group", g) for g in group_ids), ("project", project.id)]
    for owner in owners:
        for variable in of_owner(store, owner):
            if variable.environment_scope != "*" or (variable.protected and not protected_ref):
                continue
            out[variable.key] = variable.value
    return out
