"""The project pipelines list: every filter and ordering of ``GET /projects/:id/pipelines``.

The list comes from the ``roots_by_<order_by>`` index of the project (child pipelines
are left out). ``scope=branches`` and ``scope=tags`` keep the newest pipeline of each
existing branch or tag (found from the ``roots_by_project_ref`` index); the other filters
are one predicate over the ordered index.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from fakeservice.ci.machines import COMPLETED, PIPELINE_STATES
from fakeservice.ci.models import PIPELINE_ORDERS, Pipeline, latest_for_ref, pipelines
from fakeservice.ci.repo import repository
from fakeservice.core.store import Selection, Store
from fakeservice.projects.models import Project
from fakeservice.users.models import find_by_username

PIPELINE_SCOPES = ("running", "pending", "finished", "branches", "tags")
# the ``status`` filter takes every pipeline state but the transient ``canceling``
PIPELINE_STATUSES = tuple(state for state in PIPELINE_STATES if state != "canceling")
PIPELINE_SOURCES = (
    "push",
    "web",
    "trigger",
    "schedule",
    "api",
    "external",
    "pipeline",
    "chat",
    "webide",
    "merge_request_event",
    "external_pull_request_event",
    "parent_pipeline",
    "ondemand_dast_scan",
    "ondemand_dast_validation",
)
PIPELINE_ORDER_BY = tuple(PIPELINE_ORDERS)


def _predicate(store: Store, params: Mapping[str, Any]) -> Callable[[Pipeline], bool] | None:
    checks: list[Callable[[Pipeline], bool]] = []
    scope = params.get("scope")
    if scope in ("running", "pending"):
        checks.append(lambda p: p.status == scope)
    elif scope == "finished":
        checks.append(lambda p: p.status in COMPLETED)
    if params.get("status"):
        status = params["status"]
        checks.append(lambda p: p.status == status)
    if params.get("source"):
        source = params["source"]
        checks.append(lambda p: p.source == source)
    if params.get("ref") is not None:
        ref = params["ref"]
        checks.append(lambda p: p.ref == ref)
    if params.get("sha") is not None:
        sha = params["sha"]
        checks.append(lambda p: p.sha == sha)
    if params.get("yaml_errors") is not None:
        wanted = bool(params["yaml_errors"])
        checks.append(lambda p: (p.yaml_errors is not None) == wanted)
    if params.get("username") is not None:
        user = find_by_username(store, params["username"])
        user_id = user.id if user is not None else None
        checks.append(lambda p: user_id is not None and p.user_id == user_id)
    after: dt.datetime | None = params.get("updated_after")
    if after is not None:
        checks.append(lambda p: p.updated_at > after)
    before: dt.datetime | None = params.get("updated_before")
    if before is not None:
        checks.append(lambda p: p.updated_at < before)
    if not checks:
        return None
    return lambda p: all(check(p) for check in checks)


def _latest_per_ref(store: Store, project: Project, tags: bool) -> list[Pipeline]:
    repo = repository(store, project)
    names = [t.name for t in repo.tags()] if tags else [b.name for b in repo.branches()]
    found = (latest_for_ref(store, project.id, name) for name in names)
    return [p for p in found if p is not None and p.tag == tags]


def project_pipelines(
    store: Store, project: Project, params: Mapping[str, Any]
) -> Selection[Pipeline]:
    """The ordered, filtered selection of a project's pipelines."""
    order_by = params.get("order_by") or "id"
    reverse = (params.get("sort") or "desc") == "desc"
    table = pipelines(store)
    if params.get("scope") in ("branches", "tags"):
        chosen = _latest_per_ref(store, project, params["scope"] == "tags")
        selection = table.ordered(chosen, PIPELINE_ORDERS[order_by], reverse=reverse)
    else:
        selection = table.select(f"roots_by_{order_by}", [project.id], reverse=reverse)
    return selection.filter(_predicate(store, params))
