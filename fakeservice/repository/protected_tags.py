"""Protected tags: rules naming a tag or a wildcard (``v*``) with the levels allowed to
create matching tags (0 no one, 30 Developers + Maintainers, 40 Maintainers, the
default, 60 Admins), and whether a caller may create, move or delete such a tag.

Creating a matching tag (through the API or a push) needs a create level; moving or
deleting one over git is refused, as the real service refuses them.
"""

from __future__ import annotations

import attrs

from fakeservice.core.errors import Conflict
from fakeservice.core.store import Store, Table
from fakeservice.repository.protected import (
    MAINTAINER_ACCESS,
    AccessLevel,
    allows,
    name_pattern,
)

CREATE_PROTECTED = "You are not allowed to create this tag as it is protected."
UPDATE_PROTECTED = "You are not allowed to change existing tags on this project."
DELETE_PROTECTED = (
    "You are not allowed to delete protected tags from this project. "
    "Only a project maintainer or owner can delete a protected tag."
)


@attrs.define(slots=True)
class ProtectedTag:
    id: int
    project_id: int
    name: str
    create_access_levels: list[AccessLevel]

    def matches(self, tag: str) -> bool:
        return name_pattern(self.name).fullmatch(tag) is not None


def protected_tags(store: Store) -> Table[ProtectedTag]:
    return store.tables["protected_tags"]


def install(store: Store) -> None:
    table = store.table("protected_tags")
    table.add_unique("project_name", lambda p: (p.project_id, p.name))
    table.add_sorted("project", lambda p: p.project_id)


def of_project(store: Store, project_id: int) -> list[ProtectedTag]:
    """A project's rules, oldest first."""
    return list(protected_tags(store).select("project", [project_id]))


def find(store: Store, project_id: int, name: str) -> ProtectedTag | None:
    return protected_tags(store).by("project_name", (project_id, name))


def rules_for(store: Store, project_id: int, tag: str) -> list[ProtectedTag]:
    return [rule for rule in of_project(store, project_id) if rule.matches(tag)]


def protect(
    store: Store, project_id: int, name: str, create: int = MAINTAINER_ACCESS
) -> ProtectedTag:
    """Add a rule; 409 ``Protected tag '<name>' already exists``."""
    if find(store, project_id, name) is not None:
        raise Conflict(f"Protected tag '{name}' already exists")
    level = AccessLevel(store.next_id("protected_tag_access_levels"), create)
    record = ProtectedTag(store.next_id("protected_tags"), project_id, name, [level])
    return protected_tags(store).insert(record)


def unprotect(store: Store, record: ProtectedTag) -> None:
    protected_tags(store).delete(record)


def can_create(store: Store, project_id: int, tag: str, role: int) -> bool:
    """Whether a caller with ``role`` (already allowed to push) may create ``tag``."""
    rules = rules_for(store, project_id, tag)
    return not rules or any(allows(rule.create_access_levels, role) for rule in rules)


def push_refusal(
    store: Store, project_id: int, tag: str, role: int, *, created: bool, deleted: bool
) -> str | None:
    """Why a push may not create, move or delete ``tag`` (None when it may)."""
    if not rules_for(store, project_id, tag):
        return None
    if deleted:
        return DELETE_PROTECTED if role < MAINTAINER_ACCESS else None
    if not created:
        return UPDATE_PROTECTED
    return None if can_create(store, project_id, tag, role) else CREATE_PROTECTED


def forget_project(store: Store, project_id: int) -> None:
    for rule in of_project(store, project_id):
        unprotect(store, rule)
