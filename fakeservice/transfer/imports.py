"""Project imports from export archives, run by the import machine on the service clock.

The request creates the (empty) project and its import record ``scheduled``; ``start``
then ``finish`` follow. At ``finish`` the archive is read (:mod:`.archive`): a broken
archive or bundle fails the import with ``import_error``; otherwise the settings (then
``override_params``) and the repository are applied and every relation item is loaded,
an item that cannot be loaded going to ``failed_relations`` (the first 100 kept) while the
import goes on. The project's ``import_status`` follows the machine.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

import attrs

from fakeservice.core.store import Store, Table
from fakeservice.instance.background import Worker, due_index, register_worker, schedule
from fakeservice.projects.models import Project, projects
from fakeservice.repository.models import record_change
from fakeservice.transfer import archive, bundle, settings
from fakeservice.transfer.machines import IMPORT_MACHINE, IMPORT_NEXT
from fakeservice.transfer.relations import relation as find_relation

TABLE = "project_imports"
MAX_FAILED_RELATIONS = 100


@attrs.define(slots=True)
class FailedRelation:
    id: int
    created_at: dt.datetime
    exception_class: str
    exception_message: str
    source: str
    relation_name: str
    line_number: int


@attrs.define(slots=True)
class ProjectImport:
    id: int  # the project's id
    user_id: int
    created_at: dt.datetime
    correlation_id: str
    status: str = "none"
    import_type: str = "gitlab_project"
    archive: bytes | None = None
    overrides: dict[str, Any] = attrs.field(factory=dict)
    import_error: str | None = None
    failed_relations: list[FailedRelation] = attrs.field(factory=list)
    due_at: dt.datetime | None = None


def imports(store: Store) -> Table[ProjectImport]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    due_index(store.table(TABLE))


def find(store: Store, project: Project) -> ProjectImport | None:
    return imports(store).get(project.id)


def correlation_id(project_id: int, now: dt.datetime) -> str:
    """A stable request id for the import (the same scenario gives the same ids)."""
    return hashlib.sha256(f"import:{project_id}:{now.isoformat()}".encode()).hexdigest()[:32]


def begin_import(
    store: Store,
    project: Project,
    user_id: int,
    data: bytes,
    overrides: dict[str, Any],
    now: dt.datetime,
) -> ProjectImport:
    record = ProjectImport(
        id=project.id,
        user_id=user_id,
        created_at=now,
        correlation_id=correlation_id(project.id, now),
        archive=data,
        overrides=dict(overrides),
    )
    imports(store).insert(record)
    fire(store, record, "schedule", now)
    schedule(store, TABLE, record, now)
    return record


def _fail_item(
    store: Store, record: ProjectImport, name: str, number: int, error: Exception, when: dt.datetime
) -> None:
    if len(record.failed_relations) >= MAX_FAILED_RELATIONS:
        return
    record.failed_relations.append(
        FailedRelation(
            id=store.next_id("import_failures"),
            created_at=when,
            exception_class=type(error).__name__,
            exception_message=str(error)[:255],
            source="process_relation_item!",
            relation_name=name,
            line_number=number,
        )
    )


def _apply(store: Store, project: Project, record: ProjectImport, when: dt.datetime) -> None:
    """Read the archive and fill the project (raises ArchiveError / BundleError)."""
    contents = archive.read(record.archive or b"")
    default_branch = contents.project.get("default_branch")
    if not isinstance(default_branch, str) or not default_branch:
        default_branch = "main"
    repo = bundle.read(contents.bundle, default_branch) if contents.bundle is not None else None
    changes = settings.changes(contents.project, record.overrides)
    changes.pop("default_branch", None)
    projects(store).update(project, **changes, updated_at=when)
    if repo is not None and not repo.is_empty:
        projects(store).update(project, default_branch=repo.default_branch)
        record_change(store, project, repo, when)
    for name in sorted(contents.relations):
        relation = find_relation(name)
        for number, line in contents.relations[name]:
            try:
                if relation is None:
                    raise LookupError(f"unknown relation {name}")
                item = json.loads(line)
                if not isinstance(item, dict):
                    raise TypeError("a relation item must be a JSON object")
                relation.load(store, project, item, when)
            except Exception as error:  # any failing item is recorded, never a 500
                _fail_item(store, record, name, number, error, when)


def fire(store: Store, record: ProjectImport, event: str, when: dt.datetime) -> str:
    """Fire ``event``; ``finish`` imports the archive first (or fails the import)."""
    project = projects(store).get(record.id)
    if event == "finish" and IMPORT_MACHINE.can(record, event) and project is not None:
        try:
            _apply(store, project, record, when)
        except (archive.ArchiveError, bundle.BundleError) as error:
            record.import_error = str(error)
            event = "fail"
        record.archive = None
    state = IMPORT_MACHINE.fire(record, event)
    imports(store).reindex(record)
    if project is not None:
        projects(store).update(project, import_status=state)
    return state


def next_event(record: ProjectImport) -> str | None:
    return IMPORT_NEXT.get(record.status)


def forget_import(store: Store, project: Project) -> None:
    record = imports(store).get(project.id)
    if record is not None:
        imports(store).delete(record)


register_worker(Worker(TABLE, next_event, fire))
