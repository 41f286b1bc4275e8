"""Who may see and do what: effective roles, visibility rules and visible-record selections.

* A project's effective role for a user is the highest of: a direct membership, a
  membership in its group or any ancestor group, ownership of its personal namespace
  (Owner), and memberships of groups it is shared with (capped at the share's level).
* A group's role is the highest of a membership of it or an ancestor, and memberships
  of the groups it or an ancestor is shared with (capped at the share's level; shares
  do not chain).
* Public records are visible to everyone, internal ones to every signed-in user who is
  not external, private ones to members (and administrators).
* Callers who may not see a record get 404, never 403.
* A caller's role is 0 when anonymous and the Admin level for administrators; a role
  lower than an endpoint needs is 403.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from fakeservice.core.errors import Forbidden
from fakeservice.core.store import Selection, Store
from fakeservice.groups.models import Namespace, descendants, namespaces, self_and_ancestor_ids
from fakeservice.members.models import (
    ADMIN_LEVEL,
    NAMESPACE,
    OWNER,
    PROJECT,
    find_member,
    of_user,
)
from fakeservice.projects.models import ORDERS, Project, projects


def _active_level(store: Store, kind: str, source_id: int, user_id: int, now: Any) -> int:
    member = find_member(store, kind, source_id, user_id)
    if member is None or not member.active(now):
        return 0
    return member.access_level


def share_active(share: dict[str, Any], now: Any) -> bool:
    """Whether a project's share with a group still grants access (expiry is a date)."""
    expires = share.get("expires_at")
    return expires is None or now.date() < expires


def membership_level(store: Store, user: Any, group: Namespace, now: Any) -> int:
    """The user's role in a group from memberships of it or of its ancestors only."""
    if user is None:
        return 0
    return max(
        (
            _active_level(store, NAMESPACE, gid, user.id, now)
            for gid in self_and_ancestor_ids(store, group)
        ),
        default=0,
    )


def group_access(store: Store, user: Any, group: Namespace, now: Any) -> int:
    """The user's role in a group, inherited from ancestors and granted by the groups the
    group (or an ancestor) is shared with, capped at each share's level (0 when none)."""
    level = membership_level(store, user, group, now)
    if user is None:
        return level
    table = namespaces(store)
    for gid in self_and_ancestor_ids(store, group):
        for share in table.rows[gid].shared_with_groups:
            other = table.get(share["group_id"])
            if other is not None and share_active(share, now):
                via = membership_level(store, user, other, now)
                if via:
                    level = max(level, min(via, share["group_access_level"]))
    return level


def project_access(store: Store, user: Any, project: Project, now: Any) -> int:
    """The user's effective role in a project (0 when none)."""
    if user is None:
        return 0
    level = _active_level(store, PROJECT, project.id, user.id, now)
    namespace = namespaces(store).rows[project.namespace_id]
    if namespace.kind == "user":
        if namespace.owner_id == user.id:
            level = max(level, OWNER)
    else:
        level = max(level, group_access(store, user, namespace, now))
    for share in project.shared_with_groups:
        group = namespaces(store).get(share["group_id"])
        if group is not None and share_active(share, now):
            via = membership_level(store, user, group, now)
            if via:
                level = max(level, min(via, share["group_access_level"]))
    return level


def _caller_role(user: Any, member_role: Callable[[], int]) -> int:
    if user is None:
        return 0
    if user.admin:
        return ADMIN_LEVEL
    return member_role()


def project_role(store: Store, user: Any, project: Project, now: Any) -> int:
    """The caller's role in a project (0 anonymous, the Admin level for administrators)."""
    return _caller_role(user, lambda: project_access(store, user, project, now))


def group_role(store: Store, user: Any, group: Namespace, now: Any) -> int:
    """The caller's role in a group (0 anonymous, the Admin level for administrators)."""
    return _caller_role(user, lambda: group_access(store, user, group, now))


def require_role(role: int, level: int, reason: str | None = None) -> int:
    """``role``, unless it is below ``level``: then 403 (with ``reason``)."""
    if role < level:
        raise Forbidden(reason)
    return role


def visible_by_level(user: Any, visibility: str) -> bool:
    """Whether a record of this visibility is visible without any membership."""
    if visibility == "public":
        return True
    if visibility == "internal":
        return user is not None and not user.external
    return False


def can_read_project(store: Store, user: Any, project: Project, now: Any) -> bool:
    if user is not None and user.admin:
        return True
    if visible_by_level(user, project.visibility):
        return True
    return project_access(store, user, project, now) > 0


def can_read_group(store: Store, user: Any, group: Namespace, now: Any) -> bool:
    if user is not None and user.admin:
        return True
    if visible_by_level(user, group.visibility):
        return True
    if user is None:
        return False
    if group_access(store, user, group, now) > 0:
        return True
    # members of a subgroup or of a project inside the group may see the group
    for member in of_user(store, user.id):
        if not member.active(now):
            continue
        if member.source_kind == NAMESPACE:
            ns = namespaces(store).get(member.source_id)
        else:
            project = projects(store).get(member.source_id)
            ns = namespaces(store).get(project.namespace_id) if project else None
        if ns is not None and group.id in self_and_ancestor_ids(store, ns):
            return True
    return False


def authorized_projects(store: Store, user: Any, now: Any) -> dict[int, int]:
    """Every project the user has a role in, with that role (from memberships and shares)."""
    out: dict[int, int] = {}
    table = projects(store)
    if user is None:
        return out

    def grant(project_id: int, level: int) -> None:
        if level > out.get(project_id, 0):
            out[project_id] = level

    own = namespaces(store).get(user.namespace_id)
    if own is not None:
        for entry in table.sorted["ns_by_id"].part(own.id):
            grant(entry[-1], OWNER)
    for member in of_user(store, user.id):
        if not member.active(now):
            continue
        if member.source_kind == PROJECT:
            grant(member.source_id, member.access_level)
            continue
        group = namespaces(store).get(member.source_id)
        if group is None:
            continue
        for ns in (group, *descendants(store, group)):
            for entry in table.sorted["ns_by_id"].part(ns.id):
                grant(entry[-1], member.access_level)
            for entry in table.sorted["shared_with"].part(ns.id):
                project = table.rows[entry[-1]]
                share = next(s for s in project.shared_with_groups if s["group_id"] == ns.id)
                if share_active(share, now):
                    grant(project.id, min(member.access_level, share["group_access_level"]))
            for shared, level in groups_shared_with(store, ns, member.access_level, now):
                for entry in table.sorted["ns_by_id"].part(shared.id):
                    grant(entry[-1], level)
    return out


def groups_shared_with(
    store: Store, group: Namespace, level: int, now: Any
) -> Iterator[tuple[Namespace, int]]:
    """The groups (with their subgroups) shared with ``group``, and the role a member of
    ``group`` at ``level`` has there (from the namespaces' ``shared_with`` index)."""
    table = namespaces(store)
    for entry in table.sorted["shared_with"].part(group.id):
        sharing = table.rows[entry[-1]]
        for share in sharing.shared_with_groups:
            if share["group_id"] == group.id and share_active(share, now):
                capped = min(level, share["group_access_level"])
                for ns in (sharing, *descendants(store, sharing)):
                    yield ns, capped


def authorized_groups(store: Store, user: Any, now: Any) -> dict[int, int]:
    """Every group the user has a role in (directly or inherited from an ancestor)."""
    out: dict[int, int] = {}
    if user is None:
        return out
    for member in of_user(store, user.id):
        if member.source_kind != NAMESPACE or not member.active(now):
            continue
        group = namespaces(store).get(member.source_id)
        if group is None or not group.is_group:
            continue
        for ns in (group, *descendants(store, group)):
            if member.access_level > out.get(ns.id, 0):
                out[ns.id] = member.access_level
            for shared, level in groups_shared_with(store, ns, member.access_level, now):
                if level > out.get(shared.id, 0):
                    out[shared.id] = level
    return out


def visible_projects(
    store: Store,
    user: Any,
    now: Any,
    *,
    order_by: str = "created_at",
    reverse: bool = True,
    within: Iterable[int] | None = None,
) -> Selection[Project]:
    """Projects the user may see, in order, merged from indexes (no full scan).

    Administrators see all; others see public (and internal when signed in and not
    external) from the visibility index plus private projects they are authorized for.
    """
    table = projects(store)
    if user is not None and user.admin:
        return table.select(f"by_{order_by}", reverse=reverse)
    levels = ["public"] + (["internal"] if visible_by_level(user, "internal") else [])
    index = table.sorted[f"vis_by_{order_by}"]
    sources = [index.part(level) for level in levels]
    authorized = authorized_projects(store, user, now)
    private = [table.rows[pid] for pid in authorized if table.rows[pid].visibility not in levels]
    if private:
        sources.append(table.ordered(private, ORDERS[order_by]).sources[0])
    return Selection(table, sources, reverse=reverse)


def direct_group_levels(store: Store, user: Any, now: Any) -> dict[int, int]:
    """Groups the user is a direct (active) member of, with the member's role."""
    out: dict[int, int] = {}
    if user is None:
        return out
    for member in of_user(store, user.id):
        if member.source_kind == NAMESPACE and member.active(now):
            group = namespaces(store).get(member.source_id)
            if group is not None and group.is_group:
                out[group.id] = member.access_level
    return out


def member_group_ids(store: Store, user: Any, now: Any) -> set[int]:
    """The groups a user sees through memberships (``GET /groups`` without ``all_available``).

    As the real service's groups finder: the groups the user is a direct member of with
    their descendants and ancestors, plus the groups (and ancestors) holding projects the
    user is a direct member of.
    """
    out: set[int] = set()
    if user is None:
        return out
    for group_id in direct_group_levels(store, user, now):
        group = namespaces(store).rows[group_id]
        out.update(self_and_ancestor_ids(store, group))
        out.update(d.id for d in descendants(store, group))
    for member in of_user(store, user.id):
        if member.source_kind != PROJECT or not member.active(now):
            continue
        project = projects(store).get(member.source_id)
        ns = namespaces(store).get(project.namespace_id) if project else None
        if ns is not None and ns.is_group:
            out.update(self_and_ancestor_ids(store, ns))
    return out
