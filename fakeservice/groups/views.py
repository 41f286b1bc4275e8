"""JSON shapes of groups (seed 001 §2.7): the list entry, its statistics, and the detail
view with the deprecated ``projects`` / ``shared_projects`` arrays and ``runners_token``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fakeservice.avatars.models import avatar_url
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.groups import settings
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.projects.models import projects
from fakeservice.users.views import custom_attributes

STATISTICS_KEYS = (
    "storage_size",
    "repository_size",
    "wiki_size",
    "lfs_objects_size",
    "job_artifacts_size",
    "pipeline_artifacts_size",
    "packages_size",
    "snippets_size",
    "uploads_size",
)


def group_web_url(group: Namespace, base_url: str) -> str:
    return f"{base_url}/groups/{group.full_path}"


def group_view(
    store: Store,
    group: Namespace,
    base_url: str,
    *,
    statistics: bool = False,
    with_custom_attributes: bool = False,
) -> dict[str, Any]:
    """A group as listed by ``GET /groups`` (and the base of the detail view)."""
    out: dict[str, Any] = {
        "id": group.id,
        "name": group.name,
        "path": group.path,
        "description": group.description,
        "visibility": group.visibility,
        "share_with_group_lock": group.share_with_group_lock,
        "require_two_factor_authentication": group.require_two_factor_authentication,
        "two_factor_grace_period": group.two_factor_grace_period,
        "project_creation_level": group.project_creation_level,
        "auto_devops_enabled": group.auto_devops_enabled,
        "subgroup_creation_level": group.subgroup_creation_level,
        "emails_disabled": group.emails_disabled,
        "emails_enabled": not group.emails_disabled,
        "mentions_disabled": group.mentions_disabled,
        "lfs_enabled": group.lfs_enabled,
        "default_branch": None,
        "default_branch_protection": group.default_branch_protection,
        "avatar_url": avatar_url(group, base_url),
        "web_url": group_web_url(group, base_url),
        "request_access_enabled": group.request_access_enabled,
        "full_name": group.full_name,
        "full_path": group.full_path,
        "file_template_project_id": group.file_template_project_id,
        "parent_id": group.parent_id,
        "created_at": iso(group.created_at),
    }
    settings.TABLE.render(store, group, out, detail=False)
    if with_custom_attributes:
        out["custom_attributes"] = custom_attributes(group)
    if statistics:
        out["statistics"] = group_statistics(store, group)
    return out


def group_statistics(store: Store, group: Namespace) -> dict[str, int]:
    """Storage counters: the sums over the group's own projects, unless the group sets them."""
    table = projects(store)
    totals = dict.fromkeys(STATISTICS_KEYS, 0)
    for entry in table.sorted["ns_by_id"].part(group.id):
        project = table.rows[entry[-1]]
        for key in STATISTICS_KEYS:
            totals[key] += int(project.statistics.get(key, 0))
    for key in STATISTICS_KEYS:
        if key in group.statistics:
            totals[key] = int(group.statistics[key])
    return totals


def share_view(store: Store, share: dict[str, Any]) -> dict[str, Any]:
    """One entry of ``shared_with_groups`` (of a group or of a project)."""
    other = namespaces(store).get(share["group_id"])
    expires = share.get("expires_at")
    return {
        "group_id": share["group_id"],
        "group_name": other.name if other else None,
        "group_full_path": other.full_path if other else None,
        "group_access_level": share["group_access_level"],
        "expires_at": expires.isoformat() if expires else None,
    }


def group_detail(
    store: Store,
    group: Namespace,
    base_url: str,
    *,
    with_custom_attributes: bool = False,
    runners_token: bool = False,
    projects_list: Sequence[dict[str, Any]] | None = None,
    shared_projects_list: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``GET /groups/:id``: the list entry plus sharing, settings and (deprecated) projects."""
    out = group_view(store, group, base_url, with_custom_attributes=with_custom_attributes)
    out["shared_with_groups"] = [share_view(store, s) for s in group.shared_with_groups]
    if runners_token:
        out["runners_token"] = group.runners_token
    settings.TABLE.render(store, group, out, detail=True)
    if projects_list is not None:
        out["projects"] = list(projects_list)
    if shared_projects_list is not None:
        out["shared_projects"] = list(shared_projects_list)
    return out
