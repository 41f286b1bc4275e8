"""Namespaces (personal namespaces of users, and groups with their hierarchy).

Groups are namespaces of kind ``group``; their ids come from the namespace sequence,
as in the real service. ``full_path`` is unique (case-insensitive) across namespaces.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.events import listeners
from fakeservice.core.sharing import EMPTY_MAP, NO_ITEMS, folded
from fakeservice.core.store import Store, Table
from fakeservice.core.validation import name_errors, too_long

VISIBILITIES = ("private", "internal", "public")
VISIBILITY_LEVEL = {"private": 0, "internal": 10, "public": 20}
PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")


@attrs.define(slots=True)
class Namespace:
    id: int
    kind: str  # "user" or "group"
    name: str
    path: str
    created_at: dt.datetime
    updated_at: dt.datetime
    full_path: str = ""
    full_name: str = ""
    parent_id: int | None = None
    owner_id: int | None = None  # user namespaces
    description: str = ""
    visibility: str = "public"
    share_with_group_lock: bool = False
    require_two_factor_authentication: bool = False
    two_factor_grace_period: int = 48
    project_creation_level: str = "developer"
    auto_devops_enabled: bool | None = None
    subgroup_creation_level: str = "maintainer"
    emails_disabled: bool = False
    mentions_disabled: bool | None = None
    lfs_enabled: bool = True
    default_branch_protection: int = 2
    request_access_enabled: bool = True
    file_template_project_id: int | None = None
    runners_token: str = ""
    # rarely set: shared empty defaults, replaced whole when written
    settings: dict[str, Any] = EMPTY_MAP  # see groups/settings.py
    custom_attributes: dict[str, str] = EMPTY_MAP
    shared_with_groups: Sequence[dict[str, Any]] = NO_ITEMS
    statistics: dict[str, int] = EMPTY_MAP
    avatar_path: str | None = None  # under /uploads (fakeservice.avatars)

    @property
    def is_group(self) -> bool:
        return self.kind == "group"


def namespaces(store: Store) -> Table[Namespace]:
    return store.tables["namespaces"]


def _group_only(fn: Any) -> Any:
    return lambda n: fn(n) if n.kind == "group" else None


def install(store: Store) -> None:
    table = store.table("namespaces")
    table.add_unique("full_path", lambda n: folded(n.full_path))
    table.add_sorted(
        "shared_with", lambda n: [s["group_id"] for s in n.shared_with_groups] or None, multi=True
    )
    for order, key in (
        ("name", lambda n: (folded(n.name),)),
        ("path", lambda n: (folded(n.path),)),
        ("id", lambda n: ()),
    ):
        # all groups, by visibility, top-level only, and children of a parent
        table.add_sorted(f"groups_by_{order}", _group_only(lambda n: "all"), key)
        table.add_sorted(f"groups_vis_by_{order}", _group_only(lambda n: n.visibility), key)
        table.add_sorted(
            f"top_by_{order}", _group_only(lambda n: "top" if n.parent_id is None else None), key
        )
        table.add_sorted(f"children_by_{order}", _group_only(lambda n: n.parent_id), key)
        table.add_sorted(
            f"top_vis_by_{order}",
            _group_only(lambda n: n.visibility if n.parent_id is None else None),
            key,
        )


def find_namespace(store: Store, full_path: str) -> Namespace | None:
    return namespaces(store).by("full_path", full_path.lower())


def find_group(store: Store, key: str | int) -> Namespace | None:
    text = str(key)
    by_id = text.isascii() and text.isdigit()
    found = namespaces(store).get(int(text)) if by_id else find_namespace(store, text)
    return found if found is not None and found.is_group else None


def ancestors(store: Store, namespace: Namespace) -> list[Namespace]:
    """Parents from the nearest up to the root."""
    out = []
    table = namespaces(store)
    current = table.get(namespace.parent_id)
    while current is not None:
        out.append(current)
        current = table.get(current.parent_id)
    return out


def self_and_ancestor_ids(store: Store, namespace: Namespace) -> list[int]:
    return [namespace.id, *(a.id for a in ancestors(store, namespace))]


def children(store: Store, group: Namespace) -> list[Namespace]:
    table = namespaces(store)
    return [table.rows[e[-1]] for e in table.sorted["children_by_id"].part(group.id)]


def descendants(store: Store, group: Namespace) -> Iterator[Namespace]:
    stack = list(reversed(children(store, group)))
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(store, current)))


def path_errors(path: str) -> list[str]:
    if (
        not path
        or not set(path) <= PATH_CHARS
        or path[0] in "-."
        or path.endswith((".", ".git", ".atom"))
    ):
        return [
            "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"
        ]
    return too_long(path)


def create_user_namespace(store: Store, user: Any, now: dt.datetime) -> Namespace:
    ns = Namespace(
        id=store.next_id("namespaces"),
        kind="user",
        name=user.name,
        path=user.username,
        full_path=user.username,
        full_name=user.name,
        owner_id=user.id,
        created_at=now,
        updated_at=now,
    )
    namespaces(store).insert(ns)
    return ns


def rename_user_namespace(store: Store, user: Any) -> None:
    ns = namespaces(store).get(user.namespace_id)
    if ns is not None:
        namespaces(store).update(
            ns, name=user.name, path=user.username, full_path=user.username, full_name=user.name
        )


def create_group(
    store: Store,
    now: dt.datetime,
    *,
    name: str | None,
    path: str,
    parent: Namespace | None = None,
    **fields: Any,
) -> Namespace:
    errors: dict[str, list[str]] = {}
    found = path_errors(path)
    if found:
        errors["path"] = found
    if name_errors(name):
        errors["name"] = name_errors(name)
    full_path = f"{parent.full_path}/{path}" if parent else path
    if not found and find_namespace(store, full_path) is not None:
        errors.setdefault("path", []).append("has already been taken")
    visibility = fields.get("visibility", "private")
    if parent is not None and VISIBILITY_LEVEL[visibility] > VISIBILITY_LEVEL[parent.visibility]:
        errors.setdefault("visibility_level", []).append(
            f"{visibility} is not allowed since the parent group has a {parent.visibility} visibility."
        )
    if errors:
        raise ValidationFailed(errors)
    group_id = store.next_id("namespaces")
    group = Namespace(
        id=group_id,
        kind="group",
        name=name,
        path=path,
        full_path=full_path,
        full_name=f"{parent.full_name} / {name}" if parent else name,
        parent_id=parent.id if parent else None,
        created_at=now,
        updated_at=now,
        runners_token=f"GR1348941{group_id:012d}",
        **fields,
    )
    namespaces(store).insert(group)
    return group


# Areas that keep records inside namespaces (projects) listen to these events (see
# fakeservice.areas): ``hook(store, namespace)`` before a namespace is deleted, and after
# its ``full_path`` or ``full_name`` changed; ``check(store, group, visibility)`` returns
# why the group may not take ``visibility`` because of what it contains (or nothing).
NAMESPACE_DELETED = "namespace.deleted"
NAMESPACE_MOVED = "namespace.moved"
GROUP_VISIBILITY = "group.visibility"


def delete_group(store: Store, group: Namespace) -> None:
    """Delete a group with its subgroups, their projects and memberships."""
    from fakeservice.members.models import NAMESPACE, members, of_source

    table = namespaces(store)
    member_table = members(store)
    for ns in [*reversed(list(descendants(store, group))), group]:
        for hook in listeners(store, NAMESPACE_DELETED):
            hook(store, ns)
        for member in of_source(store, NAMESPACE, ns.id):
            member_table.delete(member)
        table.delete(ns)


def _visibility_errors(store: Store, group: Namespace, visibility: str) -> list[str]:
    """Why a group may not take ``visibility`` (parent, subgroups, projects), as the service words it."""
    level = VISIBILITY_LEVEL[visibility]
    parent = namespaces(store).get(group.parent_id)
    if parent is not None and level > VISIBILITY_LEVEL[parent.visibility]:
        return [
            f"{visibility} is not allowed since the parent group has a {parent.visibility} visibility."
        ]
    for check in listeners(store, GROUP_VISIBILITY):
        found = check(store, group, visibility)
        if found:
            return list(found)
    if any(VISIBILITY_LEVEL[child.visibility] > level for child in children(store, group)):
        return [f"{visibility} is not allowed since there are sub-groups with higher visibility."]
    return []


def update_group(store: Store, group: Namespace, now: dt.datetime, **fields: Any) -> Namespace:
    """Validate and apply group settings; a new name or path moves every descendant path."""
    errors: dict[str, list[str]] = {}
    if "name" in fields and name_errors(fields["name"]):
        errors["name"] = name_errors(fields["name"])
    if "path" in fields and fields["path"] != group.path:
        found = path_errors(fields["path"] or "")
        if not found:
            parent = namespaces(store).get(group.parent_id)
            full_path = f"{parent.full_path}/{fields['path']}" if parent else fields["path"]
            other = find_namespace(store, full_path)
            if other is not None and other.id != group.id:
                found = ["has already been taken"]
        if found:
            errors["path"] = found
    if "visibility" in fields:
        found = _visibility_errors(store, group, fields["visibility"])
        if found:
            errors["visibility_level"] = found
    if errors:
        raise ValidationFailed(errors)
    renamed = (
        fields.get("name", group.name) != group.name or fields.get("path", group.path) != group.path
    )
    namespaces(store).update(group, updated_at=now, **fields)
    if renamed:
        refresh_paths(store, group)
    return group


def refresh_paths(store: Store, group: Namespace) -> None:
    """Recompute full paths and names of a group, its descendants and their projects
    (after a rename or a move; :data:`NAMESPACE_MOVED` for each)."""
    table = namespaces(store)
    for ns in [group, *descendants(store, group)]:
        parent = table.get(ns.parent_id)
        table.update(
            ns,
            full_path=f"{parent.full_path}/{ns.path}" if parent else ns.path,
            full_name=f"{parent.full_name} / {ns.name}" if parent else ns.name,
        )
        for hook in listeners(store, NAMESPACE_MOVED):
            hook(store, ns)
