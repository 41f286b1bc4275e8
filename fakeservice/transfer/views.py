"""The JSON of export and import statuses (seed 001 §2.9)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.projects.models import Project
from fakeservice.projects.views import project_identity
from fakeservice.transfer.exports import ProjectExport, describe, export_status
from fakeservice.transfer.imports import FailedRelation, ProjectImport


def export_view(project: Project, record: ProjectExport | None, base_url: str) -> dict[str, Any]:
    """Project fields (the description override, if any), ``export_status`` and, only when
    finished, ``_links``."""
    out = project_identity(project)
    out["description"] = describe(record, project)
    out["export_status"] = export_status(record)
    if out["export_status"] == "finished":
        out["_links"] = {
            "api_url": f"{base_url}/api/v4/projects/{project.id}/export/download",
            "web_url": f"{base_url}/{project.path_with_namespace}/download_export",
        }
    return out


def failed_relation_view(failure: FailedRelation) -> dict[str, Any]:
    return {
        "id": failure.id,
        "created_at": iso(failure.created_at),
        "exception_class": failure.exception_class,
        "exception_message": failure.exception_message,
        "source": failure.source,
        "relation_name": failure.relation_name,
        "line_number": failure.line_number,
    }


def _import_fields(
    project: Project, record: ProjectImport | None, *, status: bool
) -> dict[str, Any]:
    out = project_identity(project)
    out["import_status"] = record.status if record is not None else project.import_status
    if status:
        out["import_type"] = record.import_type if record is not None else None
    out["correlation_id"] = record.correlation_id if record is not None else None
    if status and record is not None and record.status == "failed":
        out["import_error"] = record.import_error
    failures = record.failed_relations if record is not None else []
    out["failed_relations"] = [failed_relation_view(f) for f in failures]
    return out


def import_summary(project: Project, record: ProjectImport | None) -> dict[str, Any]:
    """The answer of ``POST /projects/import``."""
    return _import_fields(project, record, status=False)


def import_view(project: Project, record: ProjectImport | None) -> dict[str, Any]:
    """``GET /projects/:id/import``: adds ``import_type`` and, when failed, ``import_error``."""
    return _import_fields(project, record, status=True)
