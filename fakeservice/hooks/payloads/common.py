"""The parts every hook payload shares: the user, the project and the repository."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.groups.models import VISIBILITY_LEVEL, namespaces
from fakeservice.labels.models import labels
from fakeservice.projects.models import Project, projects
from fakeservice.users.models import User, users
from fakeservice.users.views import avatar_url


def user_of(store: Store, user_id: int | None) -> User | None:
    return users(store).get(user_id) if user_id is not None else None


def project_of(store: Store, project_id: int | None) -> Project | None:
    return projects(store).get(project_id) if project_id is not None else None


def hook_email(user: User) -> str:
    """The address payloads show: the public email, else ``[REDACTED]``."""
    return user.public_email or "[REDACTED]"


def user_payload(user: User | None, base_url: str) -> dict[str, Any] | None:
    if user is None:
        return None
    return {
        "id": user.id,
        "name": user.name,
        "username": user.username,
        "avatar_url": avatar_url(user, base_url),
        "email": hook_email(user),
    }


def project_payload(store: Store, project: Project, base_url: str) -> dict[str, Any]:
    ns = namespaces(store).rows.get(project.namespace_id)
    web_url = f"{base_url}/{project.path_with_namespace}"
    host = base_url.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]
    ssh = f"git@{host}:{project.path_with_namespace}.git"
    return {
        "id": project.id,
        "name": project.name,
        "description": project.description,
        "web_url": web_url,
        "avatar_url": None,
        "git_ssh_url": ssh,
        "git_http_url": f"{web_url}.git",
        "namespace": ns.name if ns is not None else "",
        "visibility_level": VISIBILITY_LEVEL.get(project.visibility, 0),
        "path_with_namespace": project.path_with_namespace,
        "default_branch": project.default_branch,
        "ci_config_path": project.ci_config_path,
        "homepage": web_url,
        "url": ssh,
        "ssh_url": ssh,
        "http_url": f"{web_url}.git",
    }


def repository_payload(store: Store, project: Project, base_url: str) -> dict[str, Any]:
    full = project_payload(store, project, base_url)
    return {
        "name": project.name,
        "url": full["git_ssh_url"],
        "description": project.description,
        "homepage": full["web_url"],
        "git_http_url": full["git_http_url"],
        "git_ssh_url": full["git_ssh_url"],
        "visibility_level": full["visibility_level"],
    }


def labels_payload(store: Store, label_ids: list[int]) -> list[dict[str, Any]]:
    table = labels(store)
    out = []
    for label_id in label_ids:
        label = table.get(label_id)
        if label is None:
            continue
        out.append(
            {
                "id": label.id,
                "title": label.name,
                "color": label.color,
                "project_id": label.owner_id if label.owner_kind == "project" else None,
                "created_at": iso(label.created_at),
                "updated_at": iso(label.created_at),
                "template": False,
                "description": label.description,
                "type": "ProjectLabel" if label.owner_kind == "project" else "GroupLabel",
                "group_id": label.owner_id if label.owner_kind == "group" else None,
            }
        )
    return out


def users_payload(store: Store, ids: list[int], base_url: str) -> list[dict[str, Any]]:
    return [
        found
        for found in (user_payload(user_of(store, i), base_url) for i in ids)
        if found is not None
    ]


def commit_payload(info: Any, web_url: str) -> dict[str, Any]:
    """A commit as payloads show it (``web_url`` is the project's)."""
    return {
        "id": info.id,
        "message": info.message,
        "title": info.title,
        "timestamp": iso(info.committed_date),
        "url": f"{web_url}/-/commit/{info.id}",
        "author": {"name": info.author_name, "email": info.author_email},
    }


def short_repository(store: Store, project: Project, base_url: str) -> dict[str, Any]:
    """The ``repository`` of issue, merge request and note payloads."""
    full = repository_payload(store, project, base_url)
    return {key: full[key] for key in ("name", "url", "description", "homepage")}


def issuable_payload(
    store: Store,
    project: Project,
    kind: str,
    record: Any,
    attributes: dict[str, Any],
    user: User | None,
    base_url: str,
    changes: dict[str, Any],
) -> dict[str, Any]:
    """The payload of an issue or merge request event around its ``attributes``."""
    return {
        "object_kind": kind,
        "event_type": kind,
        "user": user_payload(user, base_url),
        "project": project_payload(store, project, base_url),
        "object_attributes": attributes,
        "labels": labels_payload(store, list(record.label_ids)),
        "changes": changes,
        "repository": short_repository(store, project, base_url),
        "assignees": users_payload(store, list(record.assignee_ids), base_url),
    }
