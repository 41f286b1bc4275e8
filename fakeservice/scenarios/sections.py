"""Where areas plug into scenarios: extra top-level sections, extra keys on projects and
groups, and extra replay actions.

* :func:`register_section` ``("runner", load)``: a top-level key; ``load(service, data)``
  gets the whole scenario mapping and runs after users, groups and projects. A loader
  may also be registered under a built-in key (``projects``): it then runs whenever the
  document has that key, and the key's schema stays the built-in one.
* :func:`register_project_section` ``("files", load)``: a key on each project;
  ``load(service, project, value, where)`` runs after every project exists, section by
  section in registration order (all ``files`` before any ``pipelines``). ``load`` may
  be None when another loader reads the key: the registration then only declares it.
* :func:`register_group_section`: the same on groups.
* :func:`register_action` ``("run_pipeline", handler)``: a replay step action;
  ``handler(service, value, variables)`` raises ``AssertionError`` or ``ValueError``
  with a plain message to fail the step.

``schema`` (a :mod:`.schema` kind) lets ``fakeservice check`` validate the section with
line numbers; without one any value passes the check and the loader judges it.
Registering a name twice keeps the first registration.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.scenarios.schema import ANY, Field, Kind

if TYPE_CHECKING:
    from fakeservice.service import FakeService

SectionLoader = Callable[["FakeService", Mapping[str, Any]], None]
RecordSectionLoader = Callable[["FakeService", Any, Any, str], None]
ActionHandler = Callable[["FakeService", Any, dict[str, Any]], None]


@attrs.frozen
class Section:
    name: str
    handler: Callable[..., Any] | None
    schema: Kind | None = None
    doc: str = ""

    @property
    def area(self) -> str | None:
        """The area that registered the key (``ci`` for ``fakeservice.ci.scenario``)."""
        module = getattr(self.handler, "__module__", "") or ""
        parts = module.split(".")
        return parts[1] if len(parts) > 2 and parts[0] == "fakeservice" else None

    def field(self) -> Field:
        doc = self.doc or "registered by an area"
        if self.area:
            doc = f"{doc} *({self.area} area)*"
        return Field(self.schema or ANY, doc)


_registries: dict[str, dict[str, Section]] = {
    "top": {},
    "project": {},
    "group": {},
    "action": {},
}
BUILTIN: dict[str, frozenset[str]] = {
    "top": frozenset(),
    "project": frozenset(),
    "group": frozenset(),
    "action": frozenset(),
}


def _register(
    kind: str, name: str, handler: Callable[..., Any] | None, schema: Kind | None, doc: str
) -> None:
    if name in BUILTIN[kind] and kind != "top":
        raise ValueError(f"{name!r} is a built-in scenario key and cannot be registered")
    _registries[kind].setdefault(name, Section(name, handler, schema, doc))


def register_section(
    name: str, loader: SectionLoader, *, schema: Kind | None = None, doc: str = ""
) -> None:
    """Add a loader for a top-level scenario key handled by another area."""
    _register("top", name, loader, schema, doc)


def register_project_section(
    name: str, loader: RecordSectionLoader | None, *, schema: Kind | None = None, doc: str = ""
) -> None:
    """Add a loader for a key of each project (``projects[].files``)."""
    _register("project", name, loader, schema, doc)


def register_group_section(
    name: str, loader: RecordSectionLoader | None, *, schema: Kind | None = None, doc: str = ""
) -> None:
    """Add a loader for a key of each group (``groups[].labels``)."""
    _register("group", name, loader, schema, doc)


def register_action(
    name: str, handler: ActionHandler, *, schema: Kind | None = None, doc: str = ""
) -> None:
    """Add a replay step action (``- run_pipeline: {...}``)."""
    _register("action", name, handler, schema, doc)


def sections(kind: str) -> dict[str, Section]:
    return _registries[kind]


def fields(kind: str) -> dict[str, Field]:
    """Schema fields of the registered keys, by name (built-in keys keep their own
    schema). Sorted, so that the reference does not depend on import order; loaders run
    in registration order (:func:`sections`)."""
    found = _registries[kind]
    return {name: found[name].field() for name in sorted(found) if name not in BUILTIN[kind]}


def register_areas() -> None:
    """Import every area, so that each registers its scenario keys and actions."""
    import importlib

    from fakeservice.areas import LIFECYCLE_MODULES, ROUTE_MODULES, SERVICE_EXTENSIONS

    for name in (*ROUTE_MODULES, *SERVICE_EXTENSIONS, *LIFECYCLE_MODULES):
        importlib.import_module(name)


def declare_builtin(kind: str, names: set[str] | frozenset[str]) -> None:
    BUILTIN[kind] = frozenset(BUILTIN[kind] | set(names))
