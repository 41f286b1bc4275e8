"""JSON shapes of snippets (seed 001 §2.5): the snippet, its note shape and agent details."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.projects.models import projects
from fakeservice.snippets.models import Snippet, files
from fakeservice.storage_moves.containers import recorded_storage
from fakeservice.users.models import users
from fakeservice.users.views import note_author


def snippet_url(store: Store, snippet: Snippet, base_url: str) -> str:
    if snippet.project_id is None:
        return f"{base_url}/-/snippets/{snippet.id}"
    project = projects(store).rows[snippet.project_id]
    return f"{base_url}/{project.path_with_namespace}/-/snippets/{snippet.id}"


def api_url(store: Store, snippet: Snippet, base_url: str) -> str:
    if snippet.project_id is None:
        return f"{base_url}/api/v4/snippets/{snippet.id}"
    return f"{base_url}/api/v4/projects/{snippet.project_id}/snippets/{snippet.id}"


STORAGE_KEY = "snippet_repository_storage"  # where snippets keep their storage (see .storage)


def snippet_view(store: Store, snippet: Snippet, base_url: str) -> dict[str, Any]:
    author = users(store).get(snippet.author_id)
    paths = files(store, snippet)
    web = snippet_url(store, snippet, base_url)
    api = api_url(store, snippet, base_url)
    host = base_url.split("://", 1)[-1].split(":", 1)[0]
    repo_path = web.removeprefix(base_url + "/").replace("/-/snippets/", "/snippets/")
    return {
        "id": snippet.id,
        "title": snippet.title,
        "description": snippet.description,
        "visibility": snippet.visibility,
        "author": note_author(author, base_url) if author is not None else None,
        "created_at": iso(snippet.created_at),
        "updated_at": iso(snippet.updated_at),
        "project_id": snippet.project_id,
        "web_url": web,
        "raw_url": f"{web}/raw",
        "file_name": paths[0] if paths else None,
        "files": [{"path": path, "raw_url": f"{web}/raw/main/{path}"} for path in paths],
        "imported": False,
        "imported_from": "none",
        "ssh_url_to_repo": f"git@{host}:{repo_path}.git",
        "http_url_to_repo": f"{base_url}/{repo_path}.git",
        "repository_storage": recorded_storage(store, STORAGE_KEY, snippet.id),
        "_links": {"self": api},
    }


def note_shape(store: Store, snippet: Snippet, note: Any, base_url: str) -> dict[str, Any]:
    """A single snippet note as seed 001 §2.4 shows it."""
    author = users(store).get(note.author_id)
    paths = files(store, snippet)
    return {
        "id": note.id,
        "title": snippet.title,
        "file_name": paths[0] if paths else None,
        "author": note_author(author, base_url) if author is not None else None,
        "expires_at": None,
        "updated_at": iso(note.updated_at),
        "created_at": iso(note.created_at),
    }


def agent_view(snippet: Snippet) -> dict[str, Any]:
    return {
        "user_agent": snippet.user_agent,
        "ip_address": snippet.ip_address,
        "akismet_submitted": False,
        "spam_service_submitted": False,
    }
