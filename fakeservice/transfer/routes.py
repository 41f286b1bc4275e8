"""Project export endpoints (seed 001 §4.9; Maintainers):

* ``POST /projects/:id/export``: 202 ``{"message":"202 Accepted"}``; ``description``
  overrides the project's in the status; ``upload[url]`` (with ``upload[http_method]``
  ``PUT``, the default, or ``POST``) receives the archive when the export finishes;
* ``GET /projects/:id/export``: the status (``_links`` once finished);
* ``GET /projects/:id/export/download``: the archive (``application/gzip``); before it
  exists 404 ``The project export file is not available yet``, without any export 404
  ``404 Not found or has expired``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import UTC
from fakeservice.core.errors import NotFound, ParamError
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import project_with_role
from fakeservice.transfer import exports
from fakeservice.transfer.router import api
from fakeservice.transfer.views import export_view
from fakeservice.web.context import Context
from fakeservice.web.http import Response, json_response
from fakeservice.web.params import HASH, STR, Param
from fakeservice.web.routing import REQUIRED

ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the project")
UPLOAD_METHODS = ("PUT", "POST")
NOT_READY = "The project export file is not available yet"
EXPIRED = "404 Not found or has expired"


def _upload(ctx: Context) -> tuple[str | None, str]:
    """``upload[url]`` and ``upload[http_method]`` with the service's 400 messages."""
    if "upload" not in ctx.raw:
        return None, "PUT"
    upload = ctx.params.get("upload")
    if not isinstance(upload, dict):
        raise ParamError(["upload is invalid"])
    url, method = upload.get("url"), upload.get("http_method", "PUT")
    errors = []
    if not isinstance(url, str) or not url:
        errors.append("upload[url] is missing" if url is None else "upload[url] is invalid")
    if method not in UPLOAD_METHODS:
        errors.append("upload[http_method] does not have a valid value")
    if errors:
        raise ParamError(errors)
    return url, method


@api.post(
    "/projects/:id/export",
    params=(
        ID,
        Param("description", STR, description="Overrides the project description"),
        Param("upload", HASH, description="url (required) and http_method (PUT or POST)"),
    ),
    auth=REQUIRED,
)
def schedule_export(ctx: Context) -> Any:
    """Schedule an export of the project."""
    project = project_with_role(ctx, MAINTAINER)
    url, method = _upload(ctx)
    exports.start_export(
        ctx.store,
        project,
        ctx.user.id,
        ctx.now,
        description=ctx.get("description"),
        upload_url=url,
        upload_method=method,
    )
    return json_response({"message": "202 Accepted"}, 202)


@api.get("/projects/:id/export", params=(ID,), auth=REQUIRED)
def export_status(ctx: Context) -> Any:
    """The project's export status."""
    project = project_with_role(ctx, MAINTAINER)
    return export_view(project, exports.find(ctx.store, project), ctx.base_url)


@api.get(
    "/projects/:id/export/download", params=(ID,), auth=REQUIRED, produces=("application/gzip",)
)
def download_export(ctx: Context) -> Any:
    """Download the finished export archive."""
    project = project_with_role(ctx, MAINTAINER)
    record = exports.find(ctx.store, project)
    if record is None:
        raise NotFound(message=EXPIRED)
    if record.file is None:
        raise NotFound(message=NOT_READY)
    when = (record.finished_at or ctx.now).astimezone(UTC)
    stamp = when.strftime("%Y-%m-%d_%H-%M-") + f"{when.microsecond // 1000:03d}"
    name = f"{stamp}_{project.path_with_namespace.replace('/', '_')}_export.tar.gz"
    return Response(
        200,
        [
            ("Content-Type", "application/gzip"),
            ("Content-Disposition", f'attachment; filename="{name}"'),
        ],
        record.file,
    )
