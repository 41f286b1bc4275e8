"""Project records and the operations on them (create, look up by id or path, update).

Lists are served from sorted indexes partitioned by visibility and by namespace, one per
supported ``order_by``, so a page costs O(log n + per_page).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.events import listeners
from fakeservice.core.sharing import folded
from fakeservice.core.store import SortKey, Store, Table, as_id
from fakeservice.core.validation import name_errors
from fakeservice.groups.models import VISIBILITY_LEVEL, Namespace, namespaces, path_errors

FEATURES = (
    "issues",
    "repository",
    "merge_requests",
    "forking",
    "wiki",
    "builds",
    "snippets",
    "pages",
    "operations",
    "analytics",
    "container_registry",
    "security_and_compliance",
    "releases",
    "environments",
    "feature_flags",
    "infrastructure",
    "monitor",
    "model_experiments",
    "model_registry",
    "requirements",
    "package_registry",
)
ACCESS_LEVEL_VALUES = ("disabled", "private", "enabled", "public")

ORDERS: dict[str, Callable[[Any], SortKey]] = {
    "id": lambda p: (),
    "created_at": lambda p: (p.created_at,),
    "updated_at": lambda p: (p.updated_at,),
    "last_activity_at": lambda p: (p.last_activity_at,),
    "name": lambda p: (p.name.lower(),),
    "path": lambda p: (p.path.lower(),),
    "star_count": lambda p: (p.star_count,),
}


@attrs.define(slots=True)
class Project:
    id: int
    name: str
    path: str
    namespace_id: int
    creator_id: int | None
    created_at: dt.datetime
    updated_at: dt.datetime
    last_activity_at: dt.datetime
    path_with_namespace: str = ""
    name_with_namespace: str = ""
    description: str | None = None
    visibility: str = "private"
    default_branch: str | None = None
    archived: bool = False
    topics: list[str] = attrs.field(factory=list)
    star_count: int = 0
    forks_count: int = 0
    open_issues_count: int = 0
    repository_storage: str = "default"
    request_access_enabled: bool = True
    lfs_enabled: bool = True
    shared_runners_enabled: bool = True
    public_jobs: bool = True
    only_allow_merge_if_pipeline_succeeds: bool = False
    only_allow_merge_if_all_discussions_are_resolved: bool = False
    remove_source_branch_after_merge: bool = True
    merge_method: str = "merge"
    squash_option: str = "default_off"
    ci_config_path: str | None = None
    build_timeout: int = 3600
    auto_devops_enabled: bool = False
    emails_enabled: bool = True
    empty_repo: bool = True
    import_status: str = "none"
    features: dict[str, str] = attrs.field(factory=lambda: dict.fromkeys(FEATURES, "enabled"))
    settings: dict[str, Any] = attrs.field(factory=dict)  # see projects/settings.py
    custom_attributes: dict[str, str] = attrs.field(factory=dict)
    shared_with_groups: list[dict[str, Any]] = attrs.field(factory=list)
    statistics: dict[str, int] = attrs.field(
        factory=lambda: {
            "commit_count": 0,
            "storage_size": 0,
            "repository_size": 0,
            "wiki_size": 0,
            "lfs_objects_size": 0,
            "job_artifacts_size": 0,
            "pipeline_artifacts_size": 0,
            "packages_size": 0,
            "snippets_size": 0,
            "uploads_size": 0,
        }
    )
    marked_for_deletion_on: dt.date | None = None
    forked_from_id: int | None = None  # the upstream of a fork (fakeservice.forks)
    avatar_path: str | None = None  # under /uploads (fakeservice.avatars)

    def feature_enabled(self, feature: str) -> bool:
        return self.features.get(feature, "enabled") != "disabled"


def projects(store: Store) -> Table[Project]:
    return store.tables["projects"]


def install(store: Store) -> None:
    table = store.table("projects")
    table.add_unique("full_path", lambda p: folded(p.path_with_namespace))
    for order, key in ORDERS.items():
        table.add_sorted(f"by_{order}", lambda p: "all", key)
        table.add_sorted(f"vis_by_{order}", lambda p: p.visibility, key)
        table.add_sorted(f"ns_by_{order}", lambda p: p.namespace_id, key)
    table.add_sorted("storage", lambda p: p.repository_storage)
    table.add_sorted(
        "shared_with", lambda p: [s["group_id"] for s in p.shared_with_groups] or None, multi=True
    )
    table.add_sorted("topic", lambda p: [t.lower() for t in p.topics] or None, multi=True)


def find_project(store: Store, key: str | int) -> Project | None:
    """A project by integer id or by full path (case-insensitive)."""
    table = projects(store)
    record_id = as_id(key)
    if record_id is not None:
        return table.get(record_id)
    return table.by("full_path", str(key).strip("/").lower())


def namespace_of(store: Store, project: Project) -> Namespace:
    return namespaces(store).rows[project.namespace_id]


def project_errors(
    store: Store,
    namespace: Namespace,
    *,
    name: str | None,
    path: str,
    visibility: str,
    exclude: int | None = None,
) -> dict[str, list[str]]:
    """Model validation of a project's name, path and visibility inside ``namespace``
    (``exclude``: the project being edited, which may keep its own path)."""
    errors: dict[str, list[str]] = {}
    if name_errors(name):
        errors["name"] = name_errors(name)
    found = path_errors(path)
    if found:
        errors["path"] = found
    else:
        other = find_project(store, f"{namespace.full_path}/{path}")
        if other is not None and other.id != exclude:
            errors.setdefault("path", []).append("has already been taken")
            errors.setdefault("name", []).append("has already been taken")
    if namespace.is_group and VISIBILITY_LEVEL[visibility] > VISIBILITY_LEVEL[namespace.visibility]:
        errors.setdefault("visibility_level", []).append(
            f"{visibility} is not allowed in a {namespace.visibility} group."
        )
    return errors


def create_project(
    store: Store,
    now: dt.datetime,
    *,
    namespace: Namespace,
    creator_id: int | None,
    name: str | None = None,
    path: str | None = None,
    **fields: Any,
) -> Project:
    """Validate and insert a project (without repository content)."""
    name = name if name is not None else path
    path = path if path is not None else _path_from_name(name or "")
    errors = project_errors(
        store, namespace, name=name, path=path, visibility=fields.get("visibility", "private")
    )
    if errors:
        raise ValidationFailed(errors)
    full_path = f"{namespace.full_path}/{path}"
    assert name is not None
    project = Project(
        id=store.next_id("projects"),
        name=name,
        path=path,
        namespace_id=namespace.id,
        creator_id=creator_id,
        created_at=now,
        updated_at=now,
        last_activity_at=now,
        path_with_namespace=full_path,
        name_with_namespace=f"{namespace.full_name} / {name}",
        **fields,
    )
    projects(store).insert(project)
    return project


def _path_from_name(name: str) -> str:
    out = "".join(c if c.isalnum() or c in "_-." else "-" for c in name.strip()).strip("-.")
    return out.lower() or "project"


# Areas that keep per-project state (repositories, pipelines, protected environments...)
# listen to this event (``setup.listen(PROJECT_DELETED, hook)``, see fakeservice.areas):
# ``hook(store, project)`` runs before a project is deleted, however that happens, so
# that nothing is left behind.
PROJECT_DELETED = "project.deleted"
DeleteHook = Callable[[Store, Project], None]


def delete_project(store: Store, project: Project) -> None:
    """Delete a project with its memberships and everything areas keep for it."""
    from fakeservice.members.models import PROJECT, members, of_source

    for hook in listeners(store, PROJECT_DELETED):
        hook(store, project)
    for member in of_source(store, PROJECT, project.id):
        members(store).delete(member)
    for starred in store.extras.get("stars", {}).values():
        starred.discard(project.id)
    projects(store).delete(project)


def delete_projects_in(store: Store, namespace: Namespace) -> None:
    """The :data:`~fakeservice.groups.models.NAMESPACE_DELETED` listener: delete the
    projects directly inside ``namespace``."""
    table = projects(store)
    for entry in list(table.sorted["ns_by_id"].part(namespace.id)):
        delete_project(store, table.rows[entry[-1]])


def visibility_errors(store: Store, group: Namespace, visibility: str) -> list[str]:
    """The :data:`~fakeservice.groups.models.GROUP_VISIBILITY` check: a group may not be
    less visible than a project directly inside it."""
    table = projects(store)
    level = VISIBILITY_LEVEL[visibility]
    for entry in table.sorted["ns_by_id"].part(group.id):
        if VISIBILITY_LEVEL[table.rows[entry[-1]].visibility] > level:
            return [
                f"{visibility} is not allowed since this group contains projects with higher visibility."
            ]
    return []


def touch(store: Store, project: Project, now: dt.datetime) -> None:
    """Record activity on a project (updates ``last_activity_at`` and ``updated_at``)."""
    projects(store).update(project, last_activity_at=now, updated_at=now)


def refresh_paths(store: Store, namespace: Namespace) -> None:
    """Recompute ``path_with_namespace`` and ``name_with_namespace`` of the projects
    directly inside ``namespace`` after it was renamed or moved (call it for each
    namespace whose ``full_path`` or ``full_name`` changed; the
    :data:`~fakeservice.groups.models.NAMESPACE_MOVED` listener)."""
    table = projects(store)
    for entry in list(table.sorted["ns_by_id"].part(namespace.id)):
        project = table.rows[entry[-1]]
        table.update(
            project,
            path_with_namespace=f"{namespace.full_path}/{project.path}",
            name_with_namespace=f"{namespace.full_name} / {project.name}",
        )
