"""Control-plane endpoints for exports (``/_fake/exports/:project_id``) and imports
(``/_fake/imports/:project_id``): read the record, fire one event (see
:mod:`fakeservice.instance.control`)."""

from __future__ import annotations

from typing import Any

from fakeservice.instance.control import machine_control
from fakeservice.projects.models import projects
from fakeservice.transfer import exports, imports
from fakeservice.transfer.machines import EXPORT_MACHINE, IMPORT_MACHINE
from fakeservice.transfer.router import api
from fakeservice.transfer.views import export_view, import_view
from fakeservice.web.context import Context


def _export(ctx: Context, record: exports.ProjectExport) -> dict[str, Any]:
    return export_view(projects(ctx.store).rows[record.id], record, ctx.base_url)


machine_control(api, "exports", exports.TABLE, EXPORT_MACHINE, exports.fire, _export)


def _import(ctx: Context, record: imports.ProjectImport) -> dict[str, Any]:
    return import_view(projects(ctx.store).rows[record.id], record)


machine_control(api, "imports", imports.TABLE, IMPORT_MACHINE, imports.fire, _import)
