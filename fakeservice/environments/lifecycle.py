"""What the environments area does when a project goes: drop its protected environments,
its environments and its deployments."""

from __future__ import annotations

from fakeservice.core.store import Store
from fakeservice.environments import deployments
from fakeservice.environments.models import of_project, protected_environments
from fakeservice.projects.models import Project


def forget_environments(store: Store, project: Project) -> None:
    table = protected_environments(store)
    for record in list(of_project(store, project.id)):
        table.delete(record)
    deployments.forget_project(store, project.id)
