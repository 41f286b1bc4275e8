"""What can move: projects, groups and (once an area registers them) snippets.

A :class:`ContainerKind` tells the storage moves how to find a container, where its
repository lives, how to move it and which containers live on a storage. Projects keep
``repository_storage`` on the project; groups (whose wiki repository moves) keep theirs
here, in ``store.extras["group_repository_storage"]`` (absent: the first storage).
The snippets area registers snippets with :func:`register_container` (keeping their
storage the way groups do, with :func:`recorded_storages`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.groups.views import group_web_url
from fakeservice.instance.models import storage_names
from fakeservice.projects.models import projects
from fakeservice.projects.views import project_identity

_GROUP_KEY = "group_repository_storage"


@attrs.frozen
class ContainerKind:
    """One kind of repository container (``project``, ``snippet``, ``group``)."""

    name: str
    label: str  # "Project": the kind in "404 Project Not Found"
    find: Callable[[Store, int], Any | None]
    storage_of: Callable[[Store, Any], str]
    set_storage: Callable[[Store, Any, str], None]
    on_storage: Callable[[Store, str], Iterable[Any]]
    view: Callable[[Store, Any, str], dict[str, Any]]
    paid: bool = False


_kinds: dict[str, ContainerKind] = {}


def register_container(kind: ContainerKind) -> ContainerKind:
    _kinds.setdefault(kind.name, kind)
    return kind


def container_kind(name: str) -> ContainerKind | None:
    return _kinds.get(name)


# -- projects ------------------------------------------------------------------------------


def _project(store: Store, project_id: int) -> Any | None:
    found = projects(store).get(project_id)
    return None if found is None or found.marked_for_deletion_on is not None else found


def _set_project_storage(store: Store, project: Any, name: str) -> None:
    projects(store).update(project, repository_storage=name)


def _projects_on(store: Store, name: str) -> Iterable[Any]:
    return list(projects(store).select("storage", [name]))


register_container(
    ContainerKind(
        name="project",
        label="Project",
        find=_project,
        storage_of=lambda _store, project: project.repository_storage,
        set_storage=_set_project_storage,
        on_storage=_projects_on,
        view=lambda _store, project, _base: project_identity(project),
    )
)

# -- groups --------------------------------------------------------------------------------


def recorded_storages(store: Store, key: str) -> dict[int, str]:
    """The storages recorded under ``store.extras[key]`` (container id → storage name)
    for a kind whose records do not keep their storage (absent: the first storage)."""
    return store.extras.setdefault(key, {})


def recorded_storage(store: Store, key: str, container_id: int) -> str:
    return recorded_storages(store, key).get(container_id) or storage_names(store)[0]


def _group_storages(store: Store) -> dict[int, str]:
    return recorded_storages(store, _GROUP_KEY)


def _group(store: Store, group_id: int) -> Any | None:
    found = namespaces(store).get(group_id)
    return found if found is not None and found.is_group else None


def group_storage(store: Store, group: Any) -> str:
    return recorded_storage(store, _GROUP_KEY, group.id)


def _set_group_storage(store: Store, group: Any, name: str) -> None:
    _group_storages(store)[group.id] = name


def _groups_on(store: Store, name: str) -> Iterable[Any]:
    """Groups on ``name``: the recorded ones, and every other group for the first storage."""
    moved = _group_storages(store)
    if name != storage_names(store)[0]:
        found = (_group(store, gid) for gid, where in sorted(moved.items()) if where == name)
        return [group for group in found if group is not None]
    return [
        group
        for group in namespaces(store).select("groups_by_id")
        if moved.get(group.id, name) == name
    ]


register_container(
    ContainerKind(
        name="group",
        label="Group",
        find=_group,
        storage_of=group_storage,
        set_storage=_set_group_storage,
        on_storage=_groups_on,
        view=lambda _store, group, base: {
            "id": group.id,
            "web_url": group_web_url(group, base),
            "name": group.name,
        },
        paid=True,
    )
)
