"""Wiki page payloads (``object_kind`` ``wiki_page``, ``action`` ``create``, ``update``
or ``delete``)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import project_payload, user_payload
from fakeservice.projects.models import Project
from fakeservice.users.models import User


def wiki_payload(
    store: Store,
    project: Project,
    wiki: Any,
    page: Any,
    action: str,
    user: User | None,
    base_url: str,
) -> dict[str, Any]:
    web_url = f"{base_url}/{project.path_with_namespace}"
    host = base_url.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]
    page_url = f"{web_url}/-/wikis/{page.slug}"
    version = wiki.repo.resolve(wiki.repo.default_branch)
    return {
        "object_kind": "wiki_page",
        "user": user_payload(user, base_url),
        "project": project_payload(store, project, base_url),
        "wiki": {
            "web_url": f"{web_url}/-/wikis/home",
            "git_ssh_url": f"git@{host}:{project.path_with_namespace}.wiki.git",
            "git_http_url": f"{web_url}.wiki.git",
            "path_with_namespace": f"{project.path_with_namespace}.wiki",
            "default_branch": wiki.repo.default_branch,
        },
        "object_attributes": {
            "title": page.title,
            "content": page.text,
            "format": page.format,
            "message": "",
            "slug": page.slug,
            "url": page_url,
            "action": action,
            "diff_url": f"{page_url}/diff?version_id={version}",
            "version_id": version,
        },
    }
