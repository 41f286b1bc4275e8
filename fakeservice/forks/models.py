"""Fork relations and fork creation.

A fork is a project whose ``forked_from_id`` names its upstream; the projects table gets
one index per list order partitioned by that id and the fork's visibility
(``forks_by_<order>``), so ``GET /projects/:id/forks`` pages through the forks a caller
may see without looking at any other project (or counting through hidden ones). ``forks_count`` of the upstream counts its linked forks.

A fork's repository is a copy of the upstream's: its own ref table (branches and tags,
or the one branch asked for) over the same immutable git objects.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.groups.models import VISIBILITIES, VISIBILITY_LEVEL, Namespace
from fakeservice.projects.models import ORDERS, Project, create_project, project_errors, projects
from fakeservice.repository.git import HEADS, TAGS, Repository
from fakeservice.repository.models import find_repository, record_change

# settings a fork takes over from its upstream (besides the repository)
COPIED = (
    "description",
    "default_branch",
    "ci_config_path",
    "build_timeout",
    "merge_method",
    "squash_option",
    "lfs_enabled",
    "request_access_enabled",
    "only_allow_merge_if_pipeline_succeeds",
    "only_allow_merge_if_all_discussions_are_resolved",
    "remove_source_branch_after_merge",
)
MR_DEFAULT_TARGET_SELF = "mr_default_target_self"  # kept in the fork's ``settings``


def install(store: Store) -> None:
    """Index the projects table by upstream and visibility, once per list order."""
    table = projects(store)
    for order, key in ORDERS.items():
        table.add_sorted(f"forks_by_{order}", _fork_key, key)


def _fork_key(project: Project) -> tuple[int, str] | None:
    if project.forked_from_id is None:
        return None
    return (project.forked_from_id, project.visibility)


def upstream_of(store: Store, project: Project) -> Project | None:
    return projects(store).get(project.forked_from_id)


def fork_visibility(source: Project, namespace: Namespace) -> str:
    """The default visibility of a fork: the least of the upstream's and the target
    group's."""
    levels = [source.visibility]
    if namespace.is_group:
        levels.append(namespace.visibility)
    return min(levels, key=lambda v: VISIBILITY_LEVEL[v])


def fork_errors(
    store: Store,
    source: Project,
    namespace: Namespace,
    *,
    name: str,
    path: str,
    visibility: str,
) -> dict[str, list[str]]:
    """The model validation of a new fork (name and path free in the namespace, a
    visibility neither above the upstream's nor above the group's)."""
    errors = project_errors(store, namespace, name=name, path=path, visibility=visibility)
    if VISIBILITY_LEVEL[visibility] > VISIBILITY_LEVEL[source.visibility]:
        errors.setdefault("visibility_level", []).append(
            f"{visibility} is not allowed since the fork source project has lower visibility."
        )
    return errors


def copy_repository(
    store: Store, source: Project, fork: Project, now: dt.datetime, branch: str | None = None
) -> None:
    """Give ``fork`` a copy of ``source``'s repository (its branches and tags, or only
    ``branch``), sharing the immutable objects."""
    repo = find_repository(store, source)
    if repo is None:
        return
    state = repo.__getstate__()
    refs: dict[bytes, bytes] = state["refs"]
    if branch is not None:
        wanted = HEADS + branch.encode()
        kept = {wanted: refs[wanted]} if wanted in refs else {}
        state["default_branch"] = branch
    else:
        kept = {n: v for n, v in refs.items() if n.startswith((HEADS, TAGS))}
    copy = Repository.__new__(Repository)
    copy.__setstate__({**state, "refs": kept})
    copy.default_branch = state["default_branch"]
    if branch is not None:
        projects(store).update(fork, default_branch=branch)
    record_change(store, fork, copy, now)


def link(store: Store, fork: Project, source: Project) -> None:
    """Make ``fork`` a fork of ``source`` (409 when it is one already)."""
    if fork.forked_from_id is not None:
        raise ApiError({"message": "Project already forked"}, status=409)
    projects(store).update(fork, forked_from_id=source.id)
    projects(store).update(source, forks_count=source.forks_count + 1)


def unlink(store: Store, fork: Project) -> bool:
    """Remove ``fork``'s relation to its upstream; False when it has none."""
    if fork.forked_from_id is None:
        return False
    source = upstream_of(store, fork)
    projects(store).update(fork, forked_from_id=None)
    fork.settings.pop(MR_DEFAULT_TARGET_SELF, None)
    if source is not None:
        projects(store).update(source, forks_count=max(0, source.forks_count - 1))
    return True


def create_fork(
    store: Store,
    now: dt.datetime,
    source: Project,
    namespace: Namespace,
    *,
    creator_id: int | None,
    name: str | None = None,
    path: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
    branch: str | None = None,
    mr_default_target_self: bool | None = None,
) -> Project:
    """Validate and create a fork of ``source`` in ``namespace`` with a copy of its
    repository; 409 with the model's messages when the name or path is taken."""
    name = name if name is not None else source.name
    path = path if path is not None else source.path
    visibility = visibility or fork_visibility(source, namespace)
    errors = fork_errors(store, source, namespace, name=name, path=path, visibility=visibility)
    if errors:
        raise ApiError({"message": errors}, status=409)
    fields: dict[str, Any] = {key: getattr(source, key) for key in COPIED}
    if description is not None:
        fields["description"] = description
    fork = create_project(
        store,
        now,
        namespace=namespace,
        creator_id=creator_id,
        name=name,
        path=path,
        visibility=visibility,
        import_status="finished",
        **fields,
    )
    fork.features.update(source.features)
    if mr_default_target_self is not None:
        fork.settings[MR_DEFAULT_TARGET_SELF] = mr_default_target_self
    link(store, fork, source)
    copy_repository(store, source, fork, now, branch)
    return fork


def forget_project(store: Store, project: Project) -> None:
    """The ``PROJECT_DELETED`` listener: a deleted fork leaves its upstream's count; the
    forks of a deleted upstream lose their relation."""
    unlink(store, project)
    table = projects(store)
    for visibility in VISIBILITIES:
        for entry in list(table.sorted["forks_by_id"].part((project.id, visibility))):
            table.update(table.rows[entry[-1]], forked_from_id=None)
