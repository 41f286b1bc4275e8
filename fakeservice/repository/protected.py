"""Protected branches: records, name matching (``*`` wildcards) and the access levels.

A protected branch rule names a branch or a wildcard pattern (``release/*``; ``*``
matches any characters, ``/`` included) and lists who may push, merge and unprotect.
Levels: 0 no one, 30 Developers + Maintainers, 40 Maintainers, 60 Admins.

The default branch is protected when a project's repository gets its first commit, with
the levels the namespace's ``default_branch_protection`` setting asks for (like the real
service): 0 not protected, 1 developers may push, 2 fully protected (the default),
3 developers may merge, 4 fully protected after the initial push.
"""

from __future__ import annotations

import functools
import re

import attrs

from fakeservice.core.errors import Conflict
from fakeservice.core.store import Store, Table

NO_ACCESS, DEVELOPER_ACCESS, MAINTAINER_ACCESS, ADMIN_ACCESS = 0, 30, 40, 60
ACCESS_LEVELS = (NO_ACCESS, DEVELOPER_ACCESS, MAINTAINER_ACCESS, ADMIN_ACCESS)
DESCRIPTIONS = {
    NO_ACCESS: "No one",
    DEVELOPER_ACCESS: "Developers + Maintainers",
    MAINTAINER_ACCESS: "Maintainers",
    ADMIN_ACCESS: "Admins",
}

# default_branch_protection -> (push level, merge level), None when not protected.
DEFAULT_PROTECTION: dict[int, tuple[int, int] | None] = {
    0: None,
    1: (DEVELOPER_ACCESS, MAINTAINER_ACCESS),
    2: (MAINTAINER_ACCESS, MAINTAINER_ACCESS),
    3: (MAINTAINER_ACCESS, DEVELOPER_ACCESS),
    4: (MAINTAINER_ACCESS, MAINTAINER_ACCESS),
}
# Settings under which a Developer may make the first push into an empty repository.
INITIAL_PUSH_BY_DEVELOPER = frozenset({0, 1, 4})


@attrs.define(slots=True)
class AccessLevel:
    """One entry of a rule's push, merge or unprotect levels (role levels only)."""

    id: int
    access_level: int


@attrs.define(slots=True)
class ProtectedBranch:
    id: int
    project_id: int
    name: str
    push_access_levels: list[AccessLevel]
    merge_access_levels: list[AccessLevel]
    unprotect_access_levels: list[AccessLevel] = attrs.field(factory=list)
    allow_force_push: bool = False
    code_owner_approval_required: bool = False

    def matches(self, branch: str) -> bool:
        return name_pattern(self.name).fullmatch(branch) is not None


@functools.lru_cache(maxsize=4096)
def name_pattern(name: str) -> re.Pattern[str]:
    """The branch names a rule covers: ``*`` is any run of characters, the rest literal."""
    return re.compile(".*?".join(re.escape(part) for part in name.split("*")), re.DOTALL)


def protected_branches(store: Store) -> Table[ProtectedBranch]:
    return store.tables["protected_branches"]


def install(store: Store) -> None:
    table = store.table("protected_branches")
    table.add_unique("project_name", lambda p: (p.project_id, p.name))
    table.add_sorted("project", lambda p: p.project_id)


def of_project(store: Store, project_id: int) -> list[ProtectedBranch]:
    """A project's rules, oldest first."""
    table = protected_branches(store)
    return [table.rows[entry[-1]] for entry in table.sorted["project"].part(project_id)]


def find(store: Store, project_id: int, name: str) -> ProtectedBranch | None:
    return protected_branches(store).by("project_name", (project_id, name))


def rules_for(store: Store, project_id: int, branch: str) -> list[ProtectedBranch]:
    """The rules that cover ``branch`` (exact names and matching wildcards)."""
    return [rule for rule in of_project(store, project_id) if rule.matches(branch)]


def _level(store: Store, level: int) -> AccessLevel:
    return AccessLevel(store.next_id("protected_branch_access_levels"), level)


def protect(
    store: Store,
    project_id: int,
    name: str,
    *,
    push: int = MAINTAINER_ACCESS,
    merge: int = MAINTAINER_ACCESS,
    unprotect: int | None = None,
    allow_force_push: bool = False,
    code_owner_approval_required: bool = False,
) -> ProtectedBranch:
    """Add a rule; 409 ``Protected branch '<name>' already exists``."""
    if find(store, project_id, name) is not None:
        raise Conflict(f"Protected branch '{name}' already exists")
    record = ProtectedBranch(
        id=store.next_id("protected_branches"),
        project_id=project_id,
        name=name,
        push_access_levels=[_level(store, push)],
        merge_access_levels=[_level(store, merge)],
        unprotect_access_levels=[_level(store, unprotect)] if unprotect is not None else [],
        allow_force_push=allow_force_push,
        code_owner_approval_required=code_owner_approval_required,
    )
    return protected_branches(store).insert(record)


def unprotect(store: Store, record: ProtectedBranch) -> None:
    protected_branches(store).delete(record)


def protect_default_branch(store: Store, project_id: int, branch: str, setting: int) -> None:
    """Protect a new repository's default branch as ``default_branch_protection`` says."""
    levels = DEFAULT_PROTECTION.get(setting, DEFAULT_PROTECTION[2])
    if levels is None or find(store, project_id, branch) is not None:
        return
    protect(store, project_id, branch, push=levels[0], merge=levels[1])


def allows(levels: list[AccessLevel], role: int) -> bool:
    """Whether a caller with ``role`` passes one of ``levels`` (0 lets no one through)."""
    return any(lv.access_level != NO_ACCESS and role >= lv.access_level for lv in levels)
