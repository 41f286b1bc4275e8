"""The JSON of a storage move: ``state`` is the human state name (``cleanup failed``)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.storage_moves.containers import container_kind
from fakeservice.storage_moves.models import StorageMove


def move_view(store: Store, move: StorageMove, base_url: str) -> dict[str, Any]:
    kind = container_kind(move.kind)
    container = kind.find(store, move.container_id) if kind is not None else None
    return {
        "id": move.id,
        "created_at": iso(move.created_at),
        "state": move.state.replace("_", " "),
        "source_storage_name": move.source_storage_name,
        "destination_storage_name": move.destination_storage_name,
        move.kind: (
            kind.view(store, container, base_url)
            if kind is not None and container is not None
            else None
        ),
    }
