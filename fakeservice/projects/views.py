"""JSON shapes of projects: the simple entry, the full entry of lists, the detail with
permissions, and the embedded namespace object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.avatars.models import avatar_url
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.groups.views import share_view
from fakeservice.projects.models import Project
from fakeservice.users.views import user_ref

# Areas add fields to the project view (e.g. the repository area's ``readme_url``).
ViewExtension = Callable[[Store, Project, dict[str, Any]], None]
_extensions: list[ViewExtension] = []


def register_view_extension(extension: ViewExtension) -> None:
    if extension not in _extensions:
        _extensions.append(extension)


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


def project_simple(store: Store, project: Project, base_url: str) -> dict[str, Any]:
    ns = namespaces(store).rows[project.namespace_id]
    host = base_url.split("://", 1)[-1].split(":", 1)[0]
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
    for extension in _extensions:
        extension(store, project, out)
    return out


def _level(project: Project, feature: str) -> str:
    return project.features.get(feature, "enabled")


def project_full(
    store: Store, project: Project, base_url: str, *, viewer_is_admin: bool = False
) -> dict[str, Any]:
    """The project entry of lists (seed 001 §2.7) with feature flags and access levels."""
    out = project_simple(store, project, base_url)
    api = f"{base_url}/api/v4/projects/{project.id}"
    ns = namespaces(store).rows[project.namespace_id]
    out["container_registry_image_prefix"] = (
        f"registry.{base_url.split('://', 1)[-1]}/{project.path_with_namespace}"
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
    out["packages_enabled"] = True
    out["empty_repo"] = project.empty_repo
    out["archived"] = project.archived
    out["visibility"] = project.visibility
    if ns.kind == "user":
        from fakeservice.users.models import users

        out["owner"] = user_ref(users(store).get(ns.owner_id), base_url)
    out["resolve_outdated_diff_discussions"] = False
    out["issues_enabled"] = project.feature_enabled("issues")
    out["merge_requests_enabled"] = project.feature_enabled("merge_requests")
    out["wiki_enabled"] = project.feature_enabled("wiki")
    out["jobs_enabled"] = project.feature_enabled("builds")
    out["snippets_enabled"] = project.feature_enabled("snippets")
    out["container_registry_enabled"] = project.container_registry_enabled
    out["service_desk_enabled"] = False
    out["can_create_merge_request_in"] = True
    for feature in ("issues", "repository", "merge_requests", "forking", "wiki", "builds", "snippets", "pages", "analytics", "container_registry", "security_and_compliance", "releases", "environments", "feature_flags", "infrastructure", "monitor", "model_experiments", "model_registry", "requirements"):  # fmt: skip
        out[f"{feature}_access_level"] = _level(project, feature)
    out["emails_disabled"] = project.emails_disabled
    out["emails_enabled"] = not project.emails_disabled
    out["shared_runners_enabled"] = project.shared_runners_enabled
    out["lfs_enabled"] = project.lfs_enabled
    out["creator_id"] = project.creator_id
    out["import_status"] = project.import_status
    out["open_issues_count"] = project.open_issues_count
    out["ci_default_git_depth"] = 20
    out["public_jobs"] = project.public_jobs
    out["build_timeout"] = project.build_timeout
    out["auto_cancel_pending_pipelines"] = "enabled"
    out["ci_config_path"] = project.ci_config_path
    out["shared_with_groups"] = [share_view(store, share) for share in project.shared_with_groups]
    out["only_allow_merge_if_pipeline_succeeds"] = project.only_allow_merge_if_pipeline_succeeds
    out["allow_merge_on_skipped_pipeline"] = None
    out["request_access_enabled"] = project.request_access_enabled
    out["only_allow_merge_if_all_discussions_are_resolved"] = (
        project.only_allow_merge_if_all_discussions_are_resolved
    )
    out["remove_source_branch_after_merge"] = project.remove_source_branch_after_merge
    out["printing_merge_request_link_enabled"] = True
    out["merge_method"] = project.merge_method
    out["squash_option"] = project.squash_option
    out["auto_devops_enabled"] = project.auto_devops_enabled
    out["auto_devops_deploy_strategy"] = "continuous"
    out["mirror"] = False
    out["marked_for_deletion_at"] = None
    out["marked_for_deletion_on"] = None
    if viewer_is_admin:
        out["repository_storage"] = project.repository_storage
    return out


def statistics_view(project: Project) -> dict[str, int]:
    return dict(project.statistics)
