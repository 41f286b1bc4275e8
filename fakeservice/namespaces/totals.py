"""Stored per-namespace subtree totals: the owner-only counters of ``GET /namespaces``
(projects, repository size, distinct group members, distinct billable members) kept up
to date as records change, so that reading them costs the same at any state size.

Each namespace has a :class:`Totals` for itself and everything below it. Observers on
the projects, members and namespaces tables (:meth:`fakeservice.core.store.Table.observe`)
see every insert, edit, delete, rollback and replay of those records, whatever code did
it: a record's *share* (the namespace it counts in and what it adds) is noted when it is
indexed and taken back from the namespace and its ancestors when it is unindexed or
changes; a group that moves to another parent carries its totals from its old ancestors
to the new ones. Totals and shares live in the store's extras, so snapshots carry them
and an undo puts them back with the rows (whatever order the tables are undone in).

:func:`recount` computes the same figures from scratch; the property tests compare it
with the stored ones after random operations.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from fakeservice.core.store import Store
from fakeservice.core.tracking import TrackedMap
from fakeservice.groups.models import Namespace, descendants, namespaces

TOTALS = "namespace_totals"  # namespace id -> Totals
# what each record adds, by record id (see the observers below)
PROJECT_SHARES = "namespace_project_shares"  # project id -> (namespace id, repository size)
MEMBER_SHARES = "namespace_member_shares"  # member id -> (namespace id, user id, of a group)
PARENTS = "namespace_parents"  # namespace id -> parent id (only for subgroups)
MAX_DEPTH = 64  # a guard against a parent loop in a half-restored state


@attrs.define(slots=True)
class Totals:
    """What a namespace and its descendants hold (user ids counted with multiplicity)."""

    projects: int = 0
    repository_size: int = 0
    group_users: dict[int, int] = attrs.field(factory=dict)  # group memberships
    billable: dict[int, int] = attrs.field(factory=dict)  # group and project memberships

    def add(self, other: Totals, sign: int) -> None:
        self.projects += sign * other.projects
        self.repository_size += sign * other.repository_size
        _add_users(self.group_users, other.group_users, sign)
        _add_users(self.billable, other.billable, sign)


def _add_users(target: dict[int, int], users: dict[int, int], sign: int) -> None:
    for user_id, count in users.items():
        left = target.get(user_id, 0) + sign * count
        if left:
            target[user_id] = left
        else:
            target.pop(user_id, None)


def _map(store: Store, key: str) -> TrackedMap:
    found = store.extras.get(key)
    if found is None:
        store.extras[key] = {}
        found = store.extras[key]
    return found  # type: ignore[no-any-return]


def _chain(store: Store, namespace_id: int | None) -> Iterator[int]:
    """``namespace_id`` and its ancestors' ids (those that exist)."""
    table = namespaces(store)
    current = table.get(namespace_id)
    for _ in range(MAX_DEPTH):
        if current is None:
            return
        yield current.id
        current = table.get(current.parent_id)


def _spread(store: Store, start: int | None, delta: Totals, sign: int) -> None:
    """Add ``delta`` (``sign`` 1) or take it back (-1) from ``start`` and its ancestors."""
    totals = _map(store, TOTALS)
    for ns_id in _chain(store, start):
        found = totals.get(ns_id)
        if found is None:
            found = totals[ns_id] = Totals()
        found.add(delta, sign)


# A share is a plain tuple whose first item is the namespace it counts in.
Share = tuple[Any, ...]


def _project_delta(share: Share) -> Totals:
    return Totals(projects=1, repository_size=share[1])


def _member_delta(share: Share) -> Totals:
    _anchor, user_id, of_group = share
    return Totals(group_users={user_id: 1} if of_group else {}, billable={user_id: 1})


def _put(store: Store, kind: str, record_id: int, share: Share | None) -> None:
    """Replace a record's share (None: remove it), moving the figures accordingly."""
    shares = _map(store, kind)
    delta = _project_delta if kind == PROJECT_SHARES else _member_delta
    old = shares.pop(record_id, None)
    if old is not None:
        _spread(store, old[0], delta(old), -1)
    if share is not None:
        shares[record_id] = share
        _spread(store, share[0], delta(share), 1)


def _same(store: Store, kind: str, record_id: int, share: Share | None) -> bool:
    return _map(store, kind).get(record_id) == share


class _Projects:
    """Projects count and repository size in their namespace; a project that changes
    namespace also carries its members' billable seats."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def share(self, project: Any) -> Share:
        return (project.namespace_id, int(project.statistics.get("repository_size", 0)))

    def added(self, project: Any) -> None:
        _put(self.store, PROJECT_SHARES, project.id, self.share(project))

    def changed(self, project: Any) -> None:
        share = self.share(project)
        if _same(self.store, PROJECT_SHARES, project.id, share):
            return
        _put(self.store, PROJECT_SHARES, project.id, share)
        members = self.store.tables.get("members")
        if members is None:
            return
        for entry in members.sorted["source"].part(("project", project.id)):
            _Members(self.store).changed(members.rows[entry[-1]])

    def removed(self, record_id: int) -> None:
        _put(self.store, PROJECT_SHARES, record_id, None)


class _Members:
    """A group membership counts its user in the group's members and billable seats; a
    project membership in the billable seats of the project's namespace."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def share(self, member: Any) -> Share | None:
        if member.source_kind == "project":
            project = self.store.tables["projects"].get(member.source_id)
            if project is None:
                return None
            return (project.namespace_id, member.user_id, False)
        return (member.source_id, member.user_id, True)

    def added(self, member: Any) -> None:
        _put(self.store, MEMBER_SHARES, member.id, self.share(member))

    def changed(self, member: Any) -> None:
        share = self.share(member)
        if not _same(self.store, MEMBER_SHARES, member.id, share):
            _put(self.store, MEMBER_SHARES, member.id, share)

    def removed(self, record_id: int) -> None:
        _put(self.store, MEMBER_SHARES, record_id, None)


class _Places:
    """A namespace's place in the tree: its subtree totals count in its ancestors, and
    move with it to a new parent (the parent is noted for subgroups only: a top-level
    namespace, every user's among them, costs no entry). A namespace keeps its own
    totals when it is unindexed (only its ancestors lose them), so a record replaced in
    place changes nothing."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _move(self, ns_id: int, parent: int | None, sign: int) -> None:
        if parent is None:  # a top-level namespace (every user's): nothing above it
            return
        own = _map(self.store, TOTALS).get(ns_id)
        if own is not None:
            _spread(self.store, parent, own, sign)

    def _note(self, ns: Namespace) -> None:
        parents = _map(self.store, PARENTS)
        if ns.parent_id is None:
            parents.pop(ns.id, None)
        else:
            parents[ns.id] = ns.parent_id

    def added(self, ns: Namespace) -> None:
        _map(self.store, TOTALS)  # present from the first namespace on
        self._note(ns)
        self._move(ns.id, ns.parent_id, 1)

    def changed(self, ns: Namespace) -> None:
        old = _map(self.store, PARENTS).get(ns.id)
        if old == ns.parent_id:
            return
        self._move(ns.id, old, -1)
        self._note(ns)
        self._move(ns.id, ns.parent_id, 1)

    def removed(self, record_id: int) -> None:
        old = _map(self.store, PARENTS).pop(record_id, None)
        self._move(record_id, old, -1)


def install(store: Store) -> None:
    """Observe the namespaces, projects and members tables of ``store`` (those present)."""
    namespaces(store).observe(_Places(store))
    if "projects" in store.tables:
        store.tables["projects"].observe(_Projects(store))
    if "members" in store.tables:
        store.tables["members"].observe(_Members(store))


def stored(store: Store, ns: Namespace) -> Totals:
    """The stored totals of ``ns`` and its descendants (zeros when it holds nothing)."""
    found = store.extras.get(TOTALS)
    if found is None and len(namespaces(store)) and "projects" in store.tables:
        rebuild(store)  # a state saved before totals were kept
        found = store.extras.get(TOTALS)
    own = found.get(ns.id) if found is not None else None
    return own if own is not None else Totals()


def rebuild(store: Store) -> None:
    """Compute every share and total from scratch (for a state that has none)."""
    for key in (TOTALS, PROJECT_SHARES, MEMBER_SHARES, PARENTS):
        store.extras[key] = {}
    for ns in namespaces(store):
        _Places(store)._note(ns)
    for project in store.tables["projects"]:
        _Projects(store).added(project)
    if "members" in store.tables:
        for member in store.tables["members"]:
            _Members(store).added(member)


def recount(store: Store, ns: Namespace) -> Totals:
    """The totals of ``ns`` computed from the records (the reference for the stored ones)."""
    from fakeservice.members.models import NAMESPACE, PROJECT, of_source

    spaces = [ns, *descendants(store, ns)] if ns.is_group else [ns]
    index = store.tables["projects"].sorted["ns_by_id"]
    rows = store.tables["projects"].rows
    project_ids = [entry[-1] for space in spaces for entry in index.part(space.id)]
    out = Totals(projects=len(project_ids))
    out.repository_size = sum(
        int(rows[pid].statistics.get("repository_size", 0)) for pid in project_ids
    )
    for space in spaces:
        for member in of_source(store, NAMESPACE, space.id):
            out.group_users[member.user_id] = out.group_users.get(member.user_id, 0) + 1
            out.billable[member.user_id] = out.billable.get(member.user_id, 0) + 1
    for pid in project_ids:
        for member in of_source(store, PROJECT, pid):
            out.billable[member.user_id] = out.billable.get(member.user_id, 0) + 1
    return out
