"""JSON shapes of clusters (seed 000 §2.7). The token is never shown. Lists show the
cluster alone; one cluster's answers (get, add, edit) add its owner, ``project`` (the
project's basic details) or ``group`` (id, web URL, name); an instance cluster's edit
answer adds ``project`` null."""

from __future__ import annotations

from typing import Any

from fakeservice.clusters.models import (
    CLUSTER_TYPES,
    GROUP,
    PLATFORM_TYPE,
    PROJECT,
    PROVIDER_TYPE,
    Cluster,
)
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.groups.views import group_web_url
from fakeservice.projects.models import projects
from fakeservice.projects.views import project_identity, project_simple
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
        "cluster_type": CLUSTER_TYPES[cluster.owner_kind],
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


def cluster_detail(
    store: Store, cluster: Cluster, base_url: str, *, edited: bool = False
) -> dict[str, Any]:
    """One cluster with its owner (``edited``: the edit answer, where an instance cluster
    shows ``project`` null)."""
    out = cluster_view(store, cluster, base_url)
    if cluster.owner_kind == PROJECT:
        project = projects(store).rows[cluster.owner_id]
        out["project"] = project_simple(store, project, base_url)
    elif cluster.owner_kind == GROUP:
        group = namespaces(store).rows[cluster.owner_id]
        out["group"] = {
            "id": group.id,
            "web_url": group_web_url(group, base_url),
            "name": group.name,
        }
    elif edited:
        out["project"] = None
    return out
