"""The ``exports`` and ``imports`` scenario sections: project exports and imports in a
given state.

.. code-block:: yaml

    exports:
      - {project: acme/website, state: finished, description: Nightly}   # archive built
      - {project: alice/dotfiles, state: started}
    imports:
      - {project: acme/platform/api, state: failed, import_error: "Broken archive"}

An export walks its machine to ``state`` (``finished`` builds the archive from the
project as loaded); an import record is set on an existing project (there is no archive
to read: ``finished`` just says so). In the ``timed`` background mode unfinished
exports carry on with the clock.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.instance.background import replan
from fakeservice.projects.models import Project, find_project, projects
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.schema import STR, Choice, Field, ListOf, Record
from fakeservice.transfer import exports, imports
from fakeservice.transfer.machines import IMPORT_MACHINE

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

EXPORT_PATHS = {
    "queued": ("queue",),
    "started": ("queue", "start"),
    "finished": ("queue", "start", "finish"),
    "failed": ("queue", "start", "fail"),
}
IMPORT_PATHS = {
    "scheduled": ("schedule",),
    "started": ("schedule", "start"),
    "finished": ("schedule", "start", "finish"),
    "failed": ("schedule", "start", "fail"),
    "canceled": ("schedule", "cancel"),
}
EXPORT = Record(
    "export",
    {
        "project": Field(STR, "the project's full path", required=True),
        "state": Field(Choice(tuple(EXPORT_PATHS)), "default finished"),
        "description": Field(STR, "overrides the project's description in the status"),
    },
)
IMPORT = Record(
    "import",
    {
        "project": Field(STR, "the project's full path", required=True),
        "state": Field(Choice(tuple(IMPORT_PATHS)), "default finished"),
        "import_error": Field(STR, "the error of a failed import"),
    },
)


def _project(service: FakeService, spec: Any, where: str) -> Project:
    if not isinstance(spec, Mapping):
        raise ScenarioError([(where, "must be a mapping")])
    project = find_project(service.store, str(spec.get("project")))
    if project is None:
        raise ScenarioError([(f"{where}.project", f"no project {spec.get('project')!r}")])
    return project


def _events(
    paths: Mapping[str, tuple[str, ...]], spec: Mapping[str, Any], where: str
) -> tuple[str, ...]:
    state = str(spec.get("state") or "finished")
    if state not in paths:
        raise ScenarioError([(f"{where}.state", f"must be one of {', '.join(paths)}")])
    return paths[state]


def _entries(
    service: FakeService, data: Mapping[str, Any], key: str, paths: Mapping[str, tuple[str, ...]]
) -> Iterator[tuple[str, Mapping[str, Any], Project, tuple[str, ...]]]:
    """Each entry of ``key``: where it is, the entry, its project and the events to fire."""
    value = data.get(key) or []
    if not isinstance(value, list):
        raise ScenarioError([(key, "must be a list")])
    for index, spec in enumerate(value):
        where = f"{key}[{index}]"
        project = _project(service, spec, where)
        yield where, spec, project, _events(paths, spec, where)


def load_exports(service: FakeService, data: Mapping[str, Any]) -> None:
    store, now = service.store, service.clock.now()
    for _where, spec, project, events in _entries(service, data, "exports", EXPORT_PATHS):
        record = exports.find(store, project) or exports.exports(store).insert(
            exports.ProjectExport(id=project.id, user_id=project.creator_id or 0, created_at=now)
        )
        record.description = spec.get("description")
        for event in events:
            exports.fire(store, record, event, now)
        replan(store, exports.TABLE, record, now)


def load_imports(service: FakeService, data: Mapping[str, Any]) -> None:
    store, now = service.store, service.clock.now()
    for where, spec, project, events in _entries(service, data, "imports", IMPORT_PATHS):
        if imports.find(store, project) is not None:
            raise ScenarioError([(where, "the project has an import already")])
        record = imports.imports(store).insert(
            imports.ProjectImport(
                id=project.id,
                user_id=project.creator_id or 0,
                created_at=now,
                correlation_id=imports.correlation_id(project.id, now),
            )
        )
        for event in events:
            IMPORT_MACHINE.fire(record, event)
        if record.status == "failed":
            record.import_error = str(spec.get("import_error") or "Import failed")
        imports.imports(store).reindex(record)
        projects(store).update(project, import_status=record.status)


def register(found: Sections) -> None:
    """Declare the top-level ``exports`` and ``imports`` keys."""
    found.register_section(
        "exports", load_exports, schema=ListOf(EXPORT), doc="project exports in a given state"
    )
    found.register_section(
        "imports", load_imports, schema=ListOf(IMPORT), doc="project imports in a given state"
    )
