"""The count of project repositories Geo replicates (projects whose repository holds a
commit), kept by an observer of the projects table instead of a scan of every project.

The observer (:meth:`fakeservice.core.store.Table.observe`) notes each project whose
``empty_repo`` is false in ``store.extras["geo_repositories"]`` and drops it when the
project goes or turns empty again, so the count is the size of that map; snapshots carry
it and an undo puts it back with the rows (a state saved before the count was kept gets
it on its first read).
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.core.tracking import TrackedMap

KEY = "geo_repositories"  # project id -> True, for each project with a repository


def _noted(store: Store) -> TrackedMap:
    found = store.extras.get(KEY)
    if found is None:
        store.extras[KEY] = {}
        found = store.extras[KEY]
    return found  # type: ignore[no-any-return]


class _Repositories:
    def __init__(self, store: Store) -> None:
        self.store = store

    def added(self, project: Any) -> None:
        noted = _noted(self.store)  # present from the first project on
        if not project.empty_repo:
            noted[project.id] = True

    def changed(self, project: Any) -> None:
        noted = _noted(self.store)
        if project.empty_repo:
            noted.pop(project.id, None)
        elif not dict.__contains__(noted, project.id):
            noted[project.id] = True

    def removed(self, record_id: int) -> None:
        _noted(self.store).pop(record_id, None)


def install(store: Store) -> None:
    """Observe ``store``'s projects table (when the store has one)."""
    if "projects" in store.tables:
        store.tables["projects"].observe(_Repositories(store))


def count(store: Store) -> int:
    """How many projects have a repository with at least one commit."""
    found = store.extras.get(KEY)
    if found is None and len(store.tables.get("projects") or ()):
        rebuild(store)  # a state saved before the count was kept
        found = store.extras.get(KEY)
    return 0 if found is None else len(found)


def rebuild(store: Store) -> None:
    """Note every project with a repository from scratch (for a state that has none)."""
    store.extras[KEY] = {}
    observer = _Repositories(store)
    for project in store.tables["projects"]:
        observer.added(project)
