"""The built-in dashboard panels: users, groups, projects with their branches, and
pipelines with their jobs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fakeservice.core.clock import iso
from fakeservice.dashboard.panels import Panel, Row, newest, project_path

if TYPE_CHECKING:
    from fakeservice.composition import Composition
    from fakeservice.host import Host as FakeService


def user_rows(service: FakeService, limit: int) -> list[Row]:
    return [
        {
            "id": u.id,
            "username": u.username,
            "name": u.name,
            "status": u.state,
            "admin": "yes" if u.admin else "",
        }
        for u in newest(service, "users", limit)
    ]


def group_rows(service: FakeService, limit: int) -> list[Row]:
    return [
        {"id": g.id, "full_path": g.full_path, "visibility": g.visibility}
        for g in newest(service, "groups", limit)
    ]


def project_rows(service: FakeService, limit: int) -> list[Row]:
    from fakeservice.repository.models import find_repository

    rows = []
    for project in newest(service, "projects", limit):
        repo = find_repository(service.store, project)
        branches = [b.name for b in repo.branches()] if repo is not None else []
        rows.append(
            {
                "id": project.id,
                "path_with_namespace": project.path_with_namespace,
                "visibility": project.visibility,
                "branches": ", ".join(branches),
            }
        )
    return rows


def pipeline_rows(service: FakeService, limit: int) -> list[Row]:
    from fakeservice.ci.models import latest_jobs

    store = service.store
    rows = []
    for pipeline in newest(service, "pipelines", limit):
        rows.append(
            {
                "id": pipeline.id,
                "project": project_path(store, pipeline.project_id),
                "ref": pipeline.ref,
                "status": pipeline.status,
                "updated_at": iso(pipeline.updated_at),
                "jobs": [
                    {"label": job.name, "status": job.status, "id": job.id, "stage": job.stage}
                    for job in latest_jobs(store, pipeline.id)
                ],
            }
        )
    return rows


def register(setup: Composition) -> None:
    """Show the built-in panels (each only when its table exists)."""
    setup.panel(
        Panel(
            "users",
            "Users",
            ("id", "username", "name", "status", "admin"),
            user_rows,
            table="users",
            order=10,
        )
    )
    setup.panel(
        Panel(
            "groups",
            "Groups",
            ("id", "full_path", "visibility"),
            group_rows,
            table="namespaces",
            index="groups_by_id",
            order=20,
        )
    )
    setup.panel(
        Panel(
            "projects",
            "Projects",
            ("id", "path_with_namespace", "visibility", "branches"),
            project_rows,
            table="projects",
            order=30,
        )
    )
    setup.panel(
        Panel(
            "pipelines",
            "Pipelines",
            ("id", "project", "ref", "status", "updated_at", "jobs"),
            pipeline_rows,
            table="ci_pipelines",
            order=5,
        )
    )
