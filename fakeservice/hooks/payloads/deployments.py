"""Deployment payloads (``object_kind`` ``deployment``): a deployment made by a CI job
with ``environment:`` started running, succeeded, failed or was canceled."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import project_payload, user_of, user_payload
from fakeservice.projects.models import Project
from fakeservice.repository.models import find_repository


def status_time(when: dt.datetime) -> str:
    """``2026-01-01 09:00:00 +0000``, the way the service writes ``status_changed_at``."""
    return when.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S +0000")


def deployment_payload(
    store: Store,
    project: Project,
    deployment: Any,
    environment: Any,
    base_url: str,
    now: dt.datetime,
) -> dict[str, Any]:
    web_url = f"{base_url}/{project.path_with_namespace}"
    repo = find_repository(store, project)
    info = repo.find_commit(deployment.sha) if repo is not None else None
    user = user_of(store, deployment.user_id)
    return {
        "object_kind": "deployment",
        "status": deployment.status,
        "status_changed_at": status_time(now),
        "deployment_id": deployment.id,
        "deployable_id": deployment.deployable_id,
        "deployable_url": f"{web_url}/-/jobs/{deployment.deployable_id}",
        "environment": environment.name if environment is not None else None,
        "environment_tier": environment.tier if environment is not None else None,
        "environment_slug": environment.name.lower().replace("/", "-")
        if environment is not None
        else None,
        "environment_external_url": environment.external_url if environment is not None else None,
        "project": project_payload(store, project, base_url),
        "short_sha": deployment.sha[:8],
        "user": user_payload(user, base_url),
        "user_url": f"{base_url}/{user.username}" if user is not None else None,
        "commit_url": f"{web_url}/-/commit/{deployment.sha}",
        "commit_title": info.title if info is not None else None,
        "ref": deployment.ref,
    }
