"""Job artifact endpoints (seed 000 §4.3): the archive by job or by ref and job name, one
file by job or by ref, keep, delete.

Artifact paths and refs may come with raw slashes (python-gitlab) or encoded (``%2F``);
``*ref_name`` and ``*artifact_path`` take the rest of the raw path and are decoded. For
``.../artifacts/<ref>/raw/<path>`` a ref that itself contains ``/raw/`` is found by
trying each split and keeping the one whose ref has a successful pipeline. Job tokens
are accepted on the downloads.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote

from fakeservice.ci.access import (
    DEVELOPER,
    MAINTAINER,
    build_of,
    readable_project,
    writable_project,
)
from fakeservice.ci.artifacts import job_artifacts as artifacts
from fakeservice.ci.artifacts.archive import ArchiveError, InvalidArtifactPath, read_member
from fakeservice.ci.models import Job
from fakeservice.ci.route_common import ID, JOB_ID, renderer
from fakeservice.ci.router import api
from fakeservice.core.errors import BadRequest, NotFound, or_404
from fakeservice.projects.models import Project
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import REQUIRED

JOB_NAME = Param("job", STR, required=True)
REF_NAME = Param("ref_name", STR, required=True)
ARTIFACT_PATH = Param("artifact_path", STR, required=True)
JOB_TOKEN = Param("job_token", STR)
CONTENT_TYPES = {
    ".txt": "text/plain",
    ".log": "text/plain",
    ".md": "text/markdown",
    ".csv": "text/csv",
    ".html": "text/html",
    ".htm": "text/html",
    ".css": "text/css",
    ".js": "application/javascript",
    ".json": "application/json",
    ".xml": "application/xml",
    ".yml": "text/plain",
    ".yaml": "text/plain",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".tar": "application/x-tar",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".pdf": "application/pdf",
}
FILE_TYPES = tuple(sorted({*CONTENT_TYPES.values(), "application/octet-stream"}))
ZIP = ("application/zip",)


def _disposition(filename: str) -> str:
    return f"attachment; filename=\"{filename}\"; filename*=UTF-8''{quote(filename)}"


def _download(content_type: str, filename: str, data: bytes) -> Response:
    return Response(
        200, [("Content-Type", content_type), ("Content-Disposition", _disposition(filename))], data
    )


def _archive_response(job: Job, ctx: Context) -> Response:
    archive = or_404(artifacts.archive_of(job, ctx.now))
    return _download("application/zip", artifacts.ARCHIVE_NAME, archive)


def _file_response(job: Job, path: str, ctx: Context) -> Response:
    archive = or_404(artifacts.archive_of(job, ctx.now))
    try:
        data = read_member(archive, path)
    except InvalidArtifactPath as exc:
        raise BadRequest() from exc
    except ArchiveError as exc:
        raise NotFound() from exc
    if data is None:
        raise NotFound()
    name = path.rstrip("/").rsplit("/", 1)[-1]
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return _download(CONTENT_TYPES.get(suffix, "application/octet-stream"), name, data)


def _by_ref(ctx: Context, project: Project, ref: str) -> Job:
    return or_404(artifacts.find_by_ref(ctx.store, project.id, ref, ctx.params["job"], ctx.now))


@api.get(
    "/projects/:id/jobs/:job_id/artifacts",
    params=(ID, JOB_ID, JOB_TOKEN),
    job_token=True,
    produces=ZIP,
)
def download_archive(ctx: Context) -> Response:
    """The job's artifacts archive (zip)."""
    project = readable_project(ctx)
    return _archive_response(build_of(ctx, project), ctx)


@api.get(
    "/projects/:id/jobs/artifacts/*ref_name/download",
    params=(ID, REF_NAME, JOB_NAME, JOB_TOKEN),
    job_token=True,
    produces=ZIP,
)
def download_archive_by_ref(ctx: Context) -> Response:
    """The archive of job ``job`` in the latest successful pipeline of the ref."""
    project = readable_project(ctx)
    return _archive_response(_by_ref(ctx, project, ctx.params["ref_name"]), ctx)


@api.get(
    "/projects/:id/jobs/:job_id/artifacts/*artifact_path",
    params=(ID, JOB_ID, ARTIFACT_PATH, JOB_TOKEN),
    job_token=True,
    produces=FILE_TYPES,
)
def download_file(ctx: Context) -> Response:
    """One file of the job's archive."""
    project = readable_project(ctx)
    return _file_response(build_of(ctx, project), ctx.params["artifact_path"], ctx)


_RAW_TAIL = re.compile(r"/projects/[^/]+/jobs/artifacts/(?P<rest>.+)$")


def _splits(ctx: Context) -> list[tuple[str, str]]:
    """Every ``(ref, path)`` reading of ``<ref>/raw/<path>``, longest ref first."""
    found = _RAW_TAIL.search(ctx.request.raw_path)
    rest = found.group("rest") if found else ""
    pieces = rest.split("/raw/")
    out = []
    for cut in range(len(pieces) - 1, 0, -1):
        ref = unquote("/raw/".join(pieces[:cut]))
        path = unquote("/raw/".join(pieces[cut:]))
        if ref and path:
            out.append((ref, path))
    return out


@api.get(
    "/projects/:id/jobs/artifacts/*ref_name/raw/*artifact_path",
    params=(ID, REF_NAME, ARTIFACT_PATH, JOB_NAME, JOB_TOKEN),
    job_token=True,
    produces=FILE_TYPES,
)
def download_file_by_ref(ctx: Context) -> Response:
    """One file of the archive of job ``job`` in the latest successful pipeline of the ref."""
    project = readable_project(ctx)
    candidates = _splits(ctx) or [(ctx.params["ref_name"], ctx.params["artifact_path"])]
    for ref, path in candidates:
        job = artifacts.find_by_ref(ctx.store, project.id, ref, ctx.params["job"], ctx.now)
        if job is not None:
            return _file_response(job, path, ctx)
    raise NotFound()


@api.post("/projects/:id/jobs/:job_id/artifacts/keep", params=(ID, JOB_ID), auth=REQUIRED)
def keep_artifacts(ctx: Context) -> Any:
    """Keep the job's artifacts from expiring."""
    project = writable_project(ctx, DEVELOPER)
    job = build_of(ctx, project)
    artifacts.keep(ctx.store, job)
    return renderer(ctx).job(job, download_url=True)


@api.delete("/projects/:id/jobs/:job_id/artifacts", params=(ID, JOB_ID), auth=REQUIRED)
def delete_artifacts(ctx: Context) -> None:
    """Delete the job's artifacts (Maintainer and up)."""
    project = readable_project(ctx)
    job = build_of(ctx, project)
    writable_project(ctx, MAINTAINER)
    artifacts.erase(ctx.store, job)
