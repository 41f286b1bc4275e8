"""Deletion listeners of the members area's pending records (access requests,
invitations): a deleted project's or group's records go with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.store import Store


def forget_source(table_name: str, kind: str) -> Callable[[Store, Any], None]:
    """A deletion listener removing the rows of ``table_name`` (indexed by ``source``)
    that belong to the deleted project or group."""

    def forget(store: Store, source: Any) -> None:
        table = store.tables[table_name]
        for row in list(table.select("source", [(kind, source.id)])):
            table.delete(row)

    return forget
