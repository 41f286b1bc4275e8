"""What the repository area does when a project goes: drop its repository and rules."""

from __future__ import annotations

from fakeservice.core.store import Store
from fakeservice.projects.models import Project
from fakeservice.repository import protected
from fakeservice.repository.models import forget_repository


def forget_project(store: Store, project: Project) -> None:
    forget_repository(store, project.id)
    for rule in protected.of_project(store, project.id):
        protected.unprotect(store, rule)
