"""Topics follow project deletions: a deleted project no longer counts for its topics."""

from __future__ import annotations

from fakeservice.core.store import Store
from fakeservice.projects.models import Project, projects
from fakeservice.topics.models import recount


def forget_project(store: Store, project: Project) -> None:
    if project.topics:
        names = list(project.topics)
        projects(store).update(project, topics=[])
        recount(store, names)
