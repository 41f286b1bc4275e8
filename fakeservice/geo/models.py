"""Geo node records and the operations on them.

A node's ``url`` and ``internal_url`` always end with ``/`` (as the service stores them);
``internal_url`` falls back to ``url`` when unset. The *current* node is the one named
like the instance's own Geo node name (``instance.geo_node_name``, ``fakeservice`` by
default); edits, deletes and OAuth repairs are only possible when the current node is
the primary. At most one node is primary; names are unique (case-insensitively).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table
from fakeservice.geo import repositories

TABLE = "geo_nodes"
SYNC_TYPES = ("namespaces", "shards")
DEFAULTS: dict[str, Any] = {
    "primary": False,
    "enabled": True,
    "internal_url": None,
    "files_max_capacity": 10,
    "repos_max_capacity": 25,
    "verification_max_capacity": 100,
    "container_repositories_max_capacity": 10,
    "sync_object_storage": False,
    "selective_sync_type": None,
    "selective_sync_shards": [],
    "selective_sync_namespace_ids": [],
    "minimum_reverification_interval": 7,
}
CAPACITIES = (
    "files_max_capacity",
    "repos_max_capacity",
    "verification_max_capacity",
    "container_repositories_max_capacity",
)


@attrs.define(slots=True)
class GeoNode:
    id: int
    name: str
    url: str
    primary: bool = False
    enabled: bool = True
    internal_url: str | None = None
    files_max_capacity: int = 10
    repos_max_capacity: int = 25
    verification_max_capacity: int = 100
    container_repositories_max_capacity: int = 10
    sync_object_storage: bool = False
    selective_sync_type: str | None = None
    selective_sync_shards: list[str] = attrs.field(factory=list)
    selective_sync_namespace_ids: list[int] = attrs.field(factory=list)
    minimum_reverification_interval: int = 7
    oauth_repaired: int = 0


def geo_nodes(store: Store) -> Table[GeoNode]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    table = store.table(TABLE)
    table.add_unique("name", lambda n: n.name.lower())
    table.add_unique("primary", lambda n: True if n.primary else None)
    repositories.install(store)


def with_slash(url: str | None) -> str | None:
    if url is None or url == "":
        return None
    return url if url.endswith("/") else url + "/"


def _valid_url(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def model_errors(
    store: Store, node: GeoNode | None, fields: Mapping[str, Any]
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    name = fields.get("name", node.name if node else None)
    if not name:
        errors["name"] = ["can't be blank"]
    elif len(name) > 255:
        errors["name"] = ["is too long (maximum is 255 characters)"]
    else:
        other = geo_nodes(store).by("name", name.lower())
        if other is not None and (node is None or other.id != node.id):
            errors["name"] = ["has already been taken"]
    for key in ("url", "internal_url"):
        value = fields.get(key)
        if key == "url" and not (value or (node and node.url)):
            errors["url"] = ["can't be blank"]
        elif value and not _valid_url(value):
            errors[key] = ["must be a valid URL"]
    if fields.get("primary"):
        current = geo_nodes(store).by("primary", True)
        if current is not None and (node is None or current.id != node.id):
            errors["primary"] = ["node already exists"]
    for key in CAPACITIES:
        if fields.get(key) is not None and fields[key] < 0:
            errors[key] = ["must be greater than or equal to 0"]
    interval = fields.get("minimum_reverification_interval")
    if interval is not None and interval < 1:
        errors["minimum_reverification_interval"] = ["must be greater than or equal to 1"]
    return errors


def _normalized(fields: Mapping[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in fields.items() if key in DEFAULTS or key in ("name", "url")}
    for key in ("url", "internal_url"):
        if key in out:
            out[key] = with_slash(out[key])
    for key in ("selective_sync_shards", "selective_sync_namespace_ids"):
        if key in out and out[key] is None:
            out[key] = []
    return out


def create_node(store: Store, fields: Mapping[str, Any]) -> GeoNode:
    values = {
        **DEFAULTS,
        **{k: v for k, v in fields.items() if v is not None or k == "selective_sync_type"},
    }
    errors = model_errors(store, None, values)
    if errors:
        raise ValidationFailed(errors)
    node = GeoNode(id=store.next_id(TABLE), **_normalized(values))
    return geo_nodes(store).insert(node)


def update_node(store: Store, node: GeoNode, fields: Mapping[str, Any]) -> GeoNode:
    errors = model_errors(store, node, fields)
    if errors:
        raise ValidationFailed(errors)
    return geo_nodes(store).update(node, **_normalized(fields))


def current_node(store: Store, node_name: str) -> GeoNode | None:
    return geo_nodes(store).by("name", node_name.lower())
