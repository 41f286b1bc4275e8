"""Project exports: one per project, run by the export machine on the service clock.

``queue`` (the request) → ``start`` → ``finish``: at ``finish`` the archive is built from
the project as it is then (settings, relations, the repository as a git bundle) and, when
``upload[url]`` was given, pushed there with httpx as ``application/gzip`` (PUT by default,
or POST); an upload that fails (an error or a status other than 2xx) fails the export.
An older archive stays downloadable while a new export runs
(``regeneration_in_progress``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs
import httpx

from fakeservice.core.store import Store, Table
from fakeservice.instance.background import Worker, due_index, register_worker, schedule
from fakeservice.projects.models import Project, projects
from fakeservice.repository.models import find_repository
from fakeservice.transfer import archive, bundle, settings
from fakeservice.transfer.machines import EXPORT_MACHINE, EXPORT_NEXT
from fakeservice.transfer.relations import relations

TABLE = "project_exports"
UPLOAD_TIMEOUT = 30.0


@attrs.define(slots=True)
class ProjectExport:
    id: int  # the project's id: one export per project
    user_id: int
    created_at: dt.datetime
    status: str = "none"
    description: str | None = None
    upload_url: str | None = None
    upload_method: str = "PUT"
    file: bytes | None = None
    finished_at: dt.datetime | None = None
    due_at: dt.datetime | None = None


def exports(store: Store) -> Table[ProjectExport]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    due_index(store.table(TABLE))


def find(store: Store, project: Project) -> ProjectExport | None:
    return exports(store).get(project.id)


def export_status(record: ProjectExport | None) -> str:
    if record is None:
        return "none"
    if record.status in ("queued", "started") and record.file is not None:
        return "regeneration_in_progress"
    return record.status


def build_archive(store: Store, project: Project, when: dt.datetime) -> bytes:
    repo = find_repository(store, project)
    data = bundle.write(repo) if repo is not None and not repo.is_empty else None
    dumped = {relation.name: relation.dump(store, project) for relation in relations()}
    return archive.write(settings.dump(project), dumped, data, when)


def _upload(record: ProjectExport, data: bytes) -> bool:
    try:
        answer = httpx.request(
            record.upload_method,
            record.upload_url or "",
            content=data,
            headers={"Content-Type": "application/gzip"},
            timeout=UPLOAD_TIMEOUT,
        )
    except (httpx.HTTPError, ValueError):
        return False
    return 200 <= answer.status_code < 300


def fire(store: Store, record: ProjectExport, event: str, when: dt.datetime) -> str:
    """Fire ``event``; ``finish`` builds (and uploads) the archive first."""
    project = projects(store).get(record.id)
    if event == "finish" and EXPORT_MACHINE.can(record, event) and project is not None:
        data = build_archive(store, project, when)
        if record.upload_url and not _upload(record, data):
            event = "fail"
        else:
            record.file, record.finished_at = data, when
    state = EXPORT_MACHINE.fire(record, event)
    exports(store).reindex(record)
    return state


def start_export(
    store: Store,
    project: Project,
    user_id: int,
    now: dt.datetime,
    *,
    description: str | None,
    upload_url: str | None,
    upload_method: str,
) -> ProjectExport:
    """Queue an export of ``project`` (an export already under way is left running)."""
    record = find(store, project)
    if record is None:
        record = exports(store).insert(
            ProjectExport(id=project.id, user_id=user_id, created_at=now)
        )
    if record.status in ("queued", "started"):
        return record
    record.user_id, record.created_at = user_id, now
    record.description = description
    record.upload_url, record.upload_method = upload_url, upload_method
    fire(store, record, "queue", now)
    schedule(store, TABLE, record, now)
    return record


def next_event(record: ProjectExport) -> str | None:
    return EXPORT_NEXT.get(record.status)


def forget_export(store: Store, project: Project) -> None:
    record = exports(store).get(project.id)
    if record is not None:
        exports(store).delete(record)


register_worker(Worker(TABLE, next_event, fire))


def describe(record: ProjectExport | None, project: Project) -> Any:
    """The description the export status shows (the override, else the project's)."""
    if record is not None and record.description is not None:
        return record.description
    return project.description
