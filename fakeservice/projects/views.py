"""JSON shapes of projects: the simple entry, the full entry of lists, the detail with
permissions, and the embedded namespace object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.avatars.models import avatar_url
from fakeservice.core.clock import iso
from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.groups.views import share_view
from fakeservice.projects.models import Project
from fakeservice.projects.settings import render as render_settings
from fakeservice.users.views import user_ref

# Areas add fields to the project view (e.g. the repository area's ``readme_url``) by
# listening to this event: ``extension(store, project, out)`` may change ``out``.
PROJECT_VIEW = "project.view"
ViewExtension = Callable[[Store, Project, dict[str, Any]], None]
# ... and to the full entry only (lists and detail, not ``simple``) through this one:
# ``extension(store, project, out, base_url)`` (e.g. the forks area's ``forked_from_project``).
PROJECT_FULL_VIEW = "project.full_view"
FullViewExtension = Callable[[Store, Project, dict[str, Any], str], None]


def namespace_view(ns: Namespace, base_url: str) -> dict[str, Any]:
    return {
        "id": ns.id,
        "name": ns.name,
        "path": ns.path,
        "kind": ns.kind,
        "full_path": ns.full_path,
        "parent_id": ns.parent_id,
        "avatar_url": avatar_url(ns, base_url),
        "web_url": f"{base_url}/{'groups/' if ns.is_group else ''}{ns.full_path}",
    }


def project_identity(project: Project) -> dict[str, Any]:
    """The fields that name a project, as every project shape (and embedded project) opens."""
    return {
        "id": project.id,
        "description": project.description,
        "name": project.name,
        "name_with_namespace": project.name_with_namespace,
        "path": project.path,
        "path_with_namespace": project.path_with_namespace,
        "created_at": iso(project.created_at),
    }


def authority(base_url: str) -> str:
    """``host[:port]`` of a base URL, without the path the fake may be mounted under."""
    return base_url.split("://", 1)[-1].split("/", 1)[0]


def project_simple(store: Store, project: Project, base_url: str) -> dict[str, Any]:
    ns = namespaces(store).rows[project.namespace_id]
    host = authority(base_url).split(":", 1)[0]
    out: dict[str, Any] = {
        **project_identity(project),
        "default_branch": project.default_branch,
        "tag_list": list(project.topics),
        "topics": list(project.topics),
        "ssh_url_to_repo": f"git@{host}:{project.path_with_namespace}.git",
        "http_url_to_repo": f"{base_url}/{project.path_with_namespace}.git",
        "web_url": f"{base_url}/{project.path_with_namespace}",
        "readme_url": None,
        "forks_count": project.forks_count,
        "avatar_url": avatar_url(project, base_url),
        "star_count": project.star_count,
        "last_activity_at": iso(project.last_activity_at),
        "namespace": namespace_view(ns, base_url),
    }
    for extension in listeners(store, PROJECT_VIEW):
        extension(store, project, out)
    return out


def project_full(
    store: Store, project: Project, base_url: str, *, viewer_is_admin: bool = False
) -> dict[str, Any]:
    """The project entry of lists (seed 001 §2.7) with feature flags and access levels."""
    out = project_simple(store, project, base_url)
    api = f"{base_url}/api/v4/projects/{project.id}"
    ns = namespaces(store).rows[project.namespace_id]
    out["container_registry_image_prefix"] = (
        f"registry.{authority(base_url)}/{project.path_with_namespace}"
    )
    out["_links"] = {
        "self": api,
        "issues": f"{api}/issues",
        "merge_requests": f"{api}/merge_requests",
        "repo_branches": f"{api}/repository/branches",
        "labels": f"{api}/labels",
        "events": f"{api}/events",
        "members": f"{api}/members",
        "cluster_agents": f"{api}/cluster_agents",
    }
    out["empty_repo"] = project.empty_repo
    out["archived"] = project.archived
    out["visibility"] = project.visibility
    if ns.kind == "user":
        from fakeservice.users.models import users

        out["owner"] = user_ref(users(store).get(ns.owner_id), base_url)
    out["repository_object_format"] = "sha1"
    out["can_create_merge_request_in"] = True
    out["service_desk_address"] = None
    render_settings(store, project, out)
    out["creator_id"] = project.creator_id
    out["import_url"] = None
    out["import_type"] = None
    out["import_status"] = project.import_status
    out["import_error"] = None
    out["open_issues_count"] = project.open_issues_count
    out["updated_at"] = iso(project.updated_at)
    out["shared_with_groups"] = [share_view(store, share) for share in project.shared_with_groups]
    out["compliance_frameworks"] = []
    out["mirror"] = False
    out["marked_for_deletion_at"] = None
    out["marked_for_deletion_on"] = None
    if viewer_is_admin:
        out["repository_storage"] = project.repository_storage
    for extension in listeners(store, PROJECT_FULL_VIEW):
        extension(store, project, out, base_url)
    return out


def statistics_view(project: Project) -> dict[str, int]:
    return dict(project.statistics)
