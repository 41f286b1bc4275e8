"""Dropping the wiki of a project or group that is deleted."""

from __future__ import annotations

from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace
from fakeservice.projects.models import Project
from fakeservice.wikis.models import forget


def forget_project_wiki(store: Store, project: Project) -> None:
    forget(store, "project", project.id)


def forget_group_wiki(store: Store, namespace: Namespace) -> None:
    if namespace.is_group:
        forget(store, "group", namespace.id)
