"""JSON shapes of runners: the list entry (also a job's ``runner``), the details, the
managers, and the token answers of registration, creation and resets."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.projects.models import projects
from fakeservice.runners.models import INSTANCE, Runner


def runner_view(runner: Runner, now: dt.datetime) -> dict[str, Any]:
    """The runner list entry."""
    status = runner.status(now)
    return {
        "id": runner.id,
        "description": runner.description,
        "ip_address": runner.ip_address,
        "active": runner.active,
        "paused": not runner.active,
        "is_shared": runner.runner_type == INSTANCE,
        "runner_type": runner.runner_type,
        "name": runner.name,
        "online": status == "online",
        "status": status,
    }


def runner_details(store: Store, runner: Runner, now: dt.datetime, base_url: str) -> dict[str, Any]:
    """The runner's details (``GET /runners/:id``)."""
    out = runner_view(runner, now)
    out.update(
        {
            "tag_list": list(runner.tag_list),
            "run_untagged": runner.run_untagged,
            "locked": runner.locked,
            "maximum_timeout": runner.maximum_timeout,
            "access_level": runner.access_level,
            "version": runner.version,
            "revision": runner.revision,
            "platform": runner.platform,
            "architecture": runner.architecture,
            "contacted_at": iso(runner.contacted_at),
            "maintenance_note": runner.maintenance_note,
            "projects": _projects(store, runner),
            "groups": _groups(store, runner, base_url),
        }
    )
    return out


def _projects(store: Store, runner: Runner) -> list[dict[str, Any]]:
    out = []
    for project_id in runner.project_ids:
        project = projects(store).get(project_id)
        if project is None:
            continue
        out.append(
            {
                "id": project.id,
                "name": project.name,
                "name_with_namespace": project.name_with_namespace,
                "path": project.path,
                "path_with_namespace": project.path_with_namespace,
            }
        )
    return out


def _groups(store: Store, runner: Runner, base_url: str) -> list[dict[str, Any]]:
    group = namespaces(store).get(runner.group_id)
    if group is None:
        return []
    return [{"id": group.id, "web_url": f"{base_url}/groups/{group.full_path}", "name": group.name}]


def managers_view(runner: Runner, now: dt.datetime) -> list[dict[str, Any]]:
    """The runner's managers: the simulated runner process, once it made contact."""
    if runner.contacted_at is None:
        return []
    system = hashlib.sha256(f"runner-manager:{runner.id}".encode()).hexdigest()[:12]
    return [
        {
            "id": runner.id,
            "system_id": f"s_{system}",
            "version": runner.version,
            "revision": runner.revision,
            "platform": runner.platform,
            "architecture": runner.architecture,
            "created_at": iso(min(runner.created_at, runner.contacted_at)),
            "contacted_at": iso(runner.contacted_at),
            "ip_address": runner.ip_address,
            "status": runner.status(now),
        }
    ]


def token_view(runner: Runner, *, with_id: bool = True) -> dict[str, Any]:
    """``{id, token, token_expires_at}`` (registration, creation, verification) or, for a
    reset, ``{token, token_expires_at}``."""
    out: dict[str, Any] = {"id": runner.id} if with_id else {}
    out.update({"token": runner.token, "token_expires_at": None})
    return out
