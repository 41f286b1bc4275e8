"""JSON shape of a namespace: the basic fields everyone who may see it gets, plus the
counters and plan its owners and administrators see."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace
from fakeservice.namespaces.totals import stored
from fakeservice.projects.views import namespace_view

PLAN = "default"


def owner_extras(store: Store, ns: Namespace) -> dict[str, Any]:
    """The fields shown to the namespace's owners and administrators, from the stored
    subtree totals (:mod:`fakeservice.namespaces.totals`)."""
    totals = stored(store, ns)
    out: dict[str, Any] = {}
    if ns.is_group:
        out["members_count_with_descendants"] = len(totals.group_users)
    out["billable_members_count"] = len(totals.billable) if ns.is_group else 1
    out["plan"] = PLAN
    out["end_date"] = None
    out["trial_ends_on"] = None
    out["trial"] = False
    out["root_repository_size"] = totals.repository_size
    out["projects_count"] = totals.projects
    return out


def namespace_entity(
    store: Store, ns: Namespace, base_url: str, *, owner_view: bool
) -> dict[str, Any]:
    """``GET /namespaces`` entries and ``GET /namespaces/:id``."""
    out = namespace_view(ns, base_url)
    if owner_view:
        out.update(owner_extras(store, ns))
    return out
