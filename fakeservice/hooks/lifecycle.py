"""Hooks go with their project or group, and deliveries with their hook."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.hooks.deliveries import forget_hook
from fakeservice.hooks.models import GROUP, PROJECT, hooks, of_owner
from fakeservice.projects.models import Project


def _forget(store: Store, kind: str, owner_id: int) -> None:
    for hook in list(of_owner(store, kind, owner_id)):
        forget_hook(store, hook)
        hooks(store).delete(hook)


def forget_project(store: Store, project: Project) -> None:
    _forget(store, PROJECT, project.id)


def forget_namespace(store: Store, namespace: Any) -> None:
    _forget(store, GROUP, namespace.id)
