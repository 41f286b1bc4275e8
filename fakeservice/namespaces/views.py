"""JSON shape of a namespace: the basic fields everyone who may see it gets, plus the
counters and plan its owners and administrators see."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace
from fakeservice.members.models import NAMESPACE, PROJECT, of_source
from fakeservice.namespaces.models import hierarchy
from fakeservice.projects.models import projects
from fakeservice.projects.views import namespace_view

PLAN = "default"


def _project_ids(store: Store, spaces: list[Namespace]) -> list[int]:
    index = projects(store).sorted["ns_by_id"]
    return [entry[-1] for ns in spaces for entry in index.part(ns.id)]


def owner_extras(store: Store, ns: Namespace) -> dict[str, Any]:
    """The fields shown to the namespace's owners and administrators."""
    spaces = hierarchy(store, ns)
    project_ids = _project_ids(store, spaces)
    table = projects(store)
    out: dict[str, Any] = {}
    group_users = {m.user_id for space in spaces for m in of_source(store, NAMESPACE, space.id)}
    if ns.is_group:
        out["members_count_with_descendants"] = len(group_users)
    project_users = {m.user_id for pid in project_ids for m in of_source(store, PROJECT, pid)}
    billable = group_users | project_users if ns.is_group else {ns.owner_id}
    out["billable_members_count"] = len(billable)
    out["plan"] = PLAN
    out["end_date"] = None
    out["trial_ends_on"] = None
    out["trial"] = False
    out["root_repository_size"] = sum(
        int(table.rows[pid].statistics.get("repository_size", 0)) for pid in project_ids
    )
    out["projects_count"] = len(project_ids)
    return out


def namespace_entity(
    store: Store, ns: Namespace, base_url: str, *, owner_view: bool
) -> dict[str, Any]:
    """``GET /namespaces`` entries and ``GET /namespaces/:id``."""
    out = namespace_view(ns, base_url)
    if owner_view:
        out.update(owner_extras(store, ns))
    return out
