"""JSON shapes of badges, and the placeholder values of a project."""

from __future__ import annotations

from typing import Any

from fakeservice.badges.models import Badge, Placeholders, render
from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.projects.models import Project


def placeholders(store: Store, project: Project, base_url: str) -> Placeholders:
    """What each placeholder stands for in ``project`` (computed only when used)."""
    from fakeservice.repository.models import find_repository

    ns = namespaces(store).rows[project.namespace_id]
    host = base_url.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]

    def commit_sha() -> str | None:
        repo = find_repository(store, project)
        return repo.resolve(project.default_branch or "HEAD") if repo is not None else None

    return {
        "project_path": lambda: project.path_with_namespace,
        "project_title": lambda: project.name,
        "project_name": lambda: project.path,
        "project_id": lambda: str(project.id),
        "project_namespace": lambda: ns.full_path,
        "group_name": lambda: ns.full_path if ns.is_group else None,
        "gitlab_server": lambda: host,
        "gitlab_pages_domain": lambda: f"pages.{host}",
        "default_branch": lambda: project.default_branch,
        "commit_sha": commit_sha,
    }


def rendered(
    name: str | None, link_url: str, image_url: str, values: Placeholders | None
) -> dict[str, Any]:
    """The ``render`` answer (and the common part of every badge)."""
    return {
        "name": name,
        "link_url": link_url,
        "image_url": image_url,
        "rendered_link_url": render(link_url, values),
        "rendered_image_url": render(image_url, values),
    }


def badge_view(badge: Badge, values: Placeholders | None) -> dict[str, Any]:
    out = rendered(badge.name, badge.link_url, badge.image_url, values)
    return {"name": out.pop("name"), "id": badge.id, **out, "kind": badge.kind}
