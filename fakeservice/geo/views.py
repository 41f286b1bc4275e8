"""The JSON of a Geo node (seed 001 §2.9)."""

from __future__ import annotations

from typing import Any

from fakeservice.geo.models import GeoNode


def node_view(node: GeoNode, base_url: str, *, current: bool) -> dict[str, Any]:
    api = f"{base_url}/api/v4/geo_nodes/{node.id}"
    return {
        "id": node.id,
        "name": node.name,
        "url": node.url,
        "internal_url": node.internal_url or node.url,
        "primary": node.primary,
        "enabled": node.enabled,
        "current": current,
        "files_max_capacity": node.files_max_capacity,
        "repos_max_capacity": node.repos_max_capacity,
        "verification_max_capacity": node.verification_max_capacity,
        "container_repositories_max_capacity": node.container_repositories_max_capacity,
        "selective_sync_type": node.selective_sync_type,
        "selective_sync_shards": list(node.selective_sync_shards),
        "selective_sync_namespace_ids": list(node.selective_sync_namespace_ids),
        "minimum_reverification_interval": node.minimum_reverification_interval,
        "sync_object_storage": node.sync_object_storage,
        "clone_protocol": "http",
        "web_edit_url": f"{base_url}/admin/geo/sites/{node.id}/edit",
        "web_geo_projects_url": (
            None if node.primary else f"{node.url}admin/geo/replication/projects"
        ),
        "_links": {"self": api, "status": f"{api}/status", "repair": f"{api}/repair"},
    }
