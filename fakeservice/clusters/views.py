"""JSON shapes of instance clusters (seed 000 §2.7). The token is never shown; the edit
answer adds ``project`` (always null for an instance cluster)."""

from __future__ import annotations

from typing import Any

from fakeservice.clusters.models import CLUSTER_TYPE, PLATFORM_TYPE, PROVIDER_TYPE, Cluster
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.projects.models import projects
from fakeservice.projects.views import project_identity
from fakeservice.users.models import users
from fakeservice.users.views import user_ref


def cluster_view(store: Store, cluster: Cluster, base_url: str) -> dict[str, Any]:
    user = users(store).get(cluster.user_id)
    if user is not None and user.deleted:
        user = None
    management = projects(store).get(cluster.management_project_id)
    return {
        "id": cluster.id,
        "name": cluster.name,
        "created_at": iso(cluster.created_at),
        "managed": cluster.managed,
        "enabled": cluster.enabled,
        "domain": cluster.domain,
        "provider_type": PROVIDER_TYPE,
        "platform_type": PLATFORM_TYPE,
        "environment_scope": cluster.environment_scope,
        "cluster_type": CLUSTER_TYPE,
        "user": user_ref(user, base_url),
        "platform_kubernetes": {
            "api_url": cluster.api_url,
            "namespace": cluster.namespace,
            "authorization_type": cluster.authorization_type,
            "ca_cert": cluster.ca_cert,
        },
        "provider_gcp": None,
        "management_project": project_identity(management) if management is not None else None,
    }


def cluster_edit_view(store: Store, cluster: Cluster, base_url: str) -> dict[str, Any]:
    """The edit answer: the cluster plus ``project`` (null for instance clusters)."""
    return {**cluster_view(store, cluster, base_url), "project": None}
