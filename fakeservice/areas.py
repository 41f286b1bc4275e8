"""The list of resource areas: each contributes tables (``models.install``) and routes.

Adding an area means adding its module names here; the service installs the tables of
every area into its store and imports every routes module to register its endpoints.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

from fakeservice.core.store import Store

MODEL_MODULES: tuple[str, ...] = (
    "fakeservice.users.models",
    "fakeservice.groups.models",
    "fakeservice.projects.models",
    "fakeservice.members.models",
    "fakeservice.tokens.models",
    "fakeservice.repository.models",
    "fakeservice.ci.models",
    "fakeservice.environments.models",
    "fakeservice.clusters.models",
)

ROUTE_MODULES: tuple[str, ...] = (
    "fakeservice.users.routes",
    "fakeservice.groups.routes",
    "fakeservice.projects.routes",
    "fakeservice.members.routes",
    "fakeservice.tokens.routes",
    "fakeservice.meta.routes",
    "fakeservice.meta.openapi_routes",
    "fakeservice.custom_attributes.routes",
    "fakeservice.control.routes",
    "fakeservice.repository.routes",
    "fakeservice.repository.refs_routes",
    "fakeservice.repository.protected_routes",
    "fakeservice.repository.commit_routes",
    "fakeservice.repository.git_http",
    "fakeservice.ci.routes_jobs",
    "fakeservice.ci.routes_pipelines",
    "fakeservice.ci.routes_artifacts",
    "fakeservice.ci.routes_lint",
    "fakeservice.ci.routes_control",
    "fakeservice.environments.routes",
    "fakeservice.clusters.routes",
)

# Modules with ``extend(service)``: attach per-service helpers (runner, journal, faults...).
SERVICE_EXTENSIONS: tuple[str, ...] = ("fakeservice.control.service", "fakeservice.ci.extension")


def _modules(names: tuple[str, ...]) -> Iterator[ModuleType]:
    for name in names:
        yield importlib.import_module(name)


# Modules that register reactions to other areas' events (e.g. a project's deletion).
LIFECYCLE_MODULES: tuple[str, ...] = (
    "fakeservice.repository.lifecycle",
    "fakeservice.ci.lifecycle",
    "fakeservice.environments.lifecycle",
)


def install_tables(store: Store) -> None:
    for module in _modules(MODEL_MODULES):
        module.install(store)
    for _ in _modules(LIFECYCLE_MODULES):
        pass


def load_routes() -> None:
    for _ in _modules(ROUTE_MODULES):
        pass


def extend_service(service: object) -> None:
    for module in _modules(SERVICE_EXTENSIONS):
        module.extend(service)
