"""Snippets as repository storage move containers: their storage is recorded in
``store.extras["snippet_repository_storage"]`` (absent: the first storage), so that
``/snippet_repository_storage_moves`` and ``/snippets/:id/repository_storage_moves``
find and move them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fakeservice.core.store import Store
from fakeservice.instance.models import storage_names
from fakeservice.snippets.models import Snippet, snippets
from fakeservice.snippets.views import STORAGE_KEY as KEY
from fakeservice.snippets.views import snippet_view
from fakeservice.storage_moves.containers import (
    ContainerKind,
    recorded_storage,
    recorded_storages,
    register_container,
)

VIEW_KEYS = ("id", "title", "description", "visibility", "updated_at", "created_at",
             "project_id", "web_url", "raw_url", "ssh_url_to_repo", "http_url_to_repo")  # fmt: skip


def storage_of(store: Store, snippet: Snippet) -> str:
    return recorded_storage(store, KEY, snippet.id)


def _set(store: Store, snippet: Snippet, name: str) -> None:
    recorded_storages(store, KEY)[snippet.id] = name


def _on(store: Store, name: str) -> Iterable[Snippet]:
    moved = recorded_storages(store, KEY)
    if name != storage_names(store)[0]:
        found = (snippets(store).get(sid) for sid, where in sorted(moved.items()) if where == name)
        return [snippet for snippet in found if snippet is not None]
    return [s for s in snippets(store).select() if moved.get(s.id, name) == name]


def _view(store: Store, snippet: Snippet, base_url: str) -> dict[str, Any]:
    full = snippet_view(store, snippet, base_url)
    return {key: full[key] for key in VIEW_KEYS}


def register() -> None:
    register_container(
        ContainerKind(
            name="snippet",
            label="Snippet",
            find=lambda store, snippet_id: snippets(store).get(snippet_id),
            storage_of=storage_of,
            set_storage=_set,
            on_storage=_on,
            view=_view,
        )
    )
