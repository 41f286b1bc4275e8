"""Where areas plug into scenarios: extra top-level sections, extra keys on projects and
groups, and extra replay actions.

Each service has its own :class:`Sections`, filled by the areas it is composed of
(``setup.scenario_section(...)`` and friends, see :mod:`fakeservice.areas`):

* :meth:`Sections.register_section` ``("runner", load)``: a top-level key;
  ``load(service, data)`` gets the whole scenario mapping and runs after users, groups
  and projects. A loader may also be registered under a built-in key (``projects``): it
  then runs whenever the document has that key, and the key's schema stays the built-in
  one.
* :meth:`Sections.register_project_section` ``("files", load)``: a key on each project;
  ``load(service, project, value, where)`` runs after every project exists, section by
  section in registration order (all ``files`` before any ``pipelines``). ``load`` may
  be None when another loader reads the key: the registration then only declares it.
* :meth:`Sections.register_group_section`: the same on groups.
* :meth:`Sections.register_action` ``("run_pipeline", handler)``: a replay step action;
  ``handler(service, value, variables)`` raises ``AssertionError`` or ``ValueError``
  with a plain message to fail the step.

``schema`` (a :mod:`.schema` kind) lets ``fakeservice check`` validate the section with
line numbers; without one any value passes the check and the loader judges it.
Registering a name twice keeps the first registration. The scenario schema
(:mod:`.spec`) reads the keys of the :func:`active` sections: the loader makes a
service's sections active while it checks and loads a scenario (:func:`using`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.scenarios.schema import ANY, Field, Kind

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

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


KINDS = ("top", "project", "group", "action")
BUILTIN: dict[str, frozenset[str]] = {kind: frozenset() for kind in KINDS}


class Sections:
    """The scenario keys and replay actions one service's areas registered."""

    def __init__(self) -> None:
        self.registries: dict[str, dict[str, Section]] = {kind: {} for kind in KINDS}
        # kind -> (the built-in names it was made with, fields): checking a scenario
        # asks for them once per project or group
        self._fields: dict[str, tuple[frozenset[str], dict[str, Field]]] = {}

    def _register(
        self,
        kind: str,
        name: str,
        handler: Callable[..., Any] | None,
        schema: Kind | None,
        doc: str,
    ) -> None:
        if name in BUILTIN[kind] and kind != "top":
            raise ValueError(f"{name!r} is a built-in scenario key and cannot be registered")
        self.registries[kind].setdefault(name, Section(name, handler, schema, doc))
        self._fields.pop(kind, None)

    def register_section(
        self, name: str, loader: SectionLoader, *, schema: Kind | None = None, doc: str = ""
    ) -> None:
        """Add a loader for a top-level scenario key handled by another area."""
        self._register("top", name, loader, schema, doc)

    def register_project_section(
        self,
        name: str,
        loader: RecordSectionLoader | None,
        *,
        schema: Kind | None = None,
        doc: str = "",
    ) -> None:
        """Add a loader for a key of each project (``projects[].files``)."""
        self._register("project", name, loader, schema, doc)

    def register_group_section(
        self,
        name: str,
        loader: RecordSectionLoader | None,
        *,
        schema: Kind | None = None,
        doc: str = "",
    ) -> None:
        """Add a loader for a key of each group (``groups[].labels``)."""
        self._register("group", name, loader, schema, doc)

    def register_action(
        self, name: str, handler: ActionHandler, *, schema: Kind | None = None, doc: str = ""
    ) -> None:
        """Add a replay step action (``- run_pipeline: {...}``)."""
        self._register("action", name, handler, schema, doc)

    def sections(self, kind: str) -> dict[str, Section]:
        return self.registries[kind]

    def fields(self, kind: str) -> dict[str, Field]:
        """Schema fields of the registered keys, by name (built-in keys keep their own
        schema). Sorted, so that the reference does not depend on registration order;
        loaders run in registration order (:meth:`sections`). Made once until a key is
        registered or declared built-in: not to be changed by the caller."""
        builtin = BUILTIN[kind]
        cached = self._fields.get(kind)
        if cached is not None and cached[0] is builtin:
            return cached[1]
        found = self.registries[kind]
        fields = {name: found[name].field() for name in sorted(found) if name not in builtin}
        self._fields[kind] = (builtin, fields)
        return fields


_NONE = Sections()
_active: ContextVar[Sections] = ContextVar("fakeservice_scenario_sections", default=_NONE)


def active() -> Sections:
    """The sections scenarios are checked against here (none outside :func:`using`)."""
    return _active.get()


@contextmanager
def using(found: Sections) -> Iterator[Sections]:
    """Check and load scenarios against ``found`` inside the block."""
    token = _active.set(found)
    try:
        yield found
    finally:
        _active.reset(token)


def declare_builtin(kind: str, names: set[str] | frozenset[str]) -> None:
    BUILTIN[kind] = frozenset(BUILTIN[kind] | set(names))
