"""Release payloads (``object_kind`` ``release``, ``action`` ``create``/``update``/``delete``)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import commit_payload, project_payload
from fakeservice.projects.models import Project
from fakeservice.repository.models import find_repository


def release_payload(
    store: Store, project: Project, release: Any, action: str, base_url: str
) -> dict[str, Any]:
    web_url = f"{base_url}/{project.path_with_namespace}"
    repo = find_repository(store, project)
    info = repo.find_commit(release.sha) if repo is not None and release.sha else None
    archive = f"{web_url}/-/archive/{release.tag_name}/{project.path}-{release.tag_name}"
    return {
        "id": release.id,
        "created_at": iso(release.created_at),
        "description": release.description,
        "name": release.name,
        "released_at": iso(release.released_at),
        "tag": release.tag_name,
        "object_kind": "release",
        "project": project_payload(store, project, base_url),
        "url": f"{web_url}/-/releases/{release.tag_name}",
        "action": action,
        "assets": {
            "count": 4,
            "links": [],
            "sources": [
                {"format": fmt, "url": f"{archive}.{fmt}"}
                for fmt in ("zip", "tar.gz", "tar.bz2", "tar")
            ],
        },
        "commit": commit_payload(info, web_url) if info is not None else None,
    }
