"""Project import endpoints (seed 001 §4.9):

* ``POST /projects/import`` (multipart): ``file`` (an export archive), ``path``,
  ``namespace`` (ID or path; default the caller's), ``name`` (default the path),
  ``overwrite`` (replace a project at that path), ``override_params[...]`` (project
  settings that win over the archive's); 201 with the import summary. A file over the
  ``max_import_size`` application setting (MB, 0 unlimited) is refused with 400.
* ``POST /projects/remote-import``: behind the ``import_project_from_remote_file``
  feature flag (``/features``; off by default: 404; on for everyone or for the caller as
  an actor); when on, the archive is fetched from ``url``,
  which must answer with a gzip content type and a valid content length of at most
  10 GB.
* ``GET /projects/:id/import``: the import status (Maintainers).
"""

from __future__ import annotations

from typing import Any

import httpx

from fakeservice.core.errors import BadRequest, NotFound, ValidationFailed
from fakeservice.core.store import as_id
from fakeservice.features.models import enabled
from fakeservice.groups.models import Namespace, find_namespace, namespaces
from fakeservice.instance.settings import current, preferred_storage
from fakeservice.members.access import group_access, project_role
from fakeservice.members.models import DEVELOPER, MAINTAINER, OWNER
from fakeservice.projects.lookup import project_with_role
from fakeservice.projects.models import (
    create_project,
    delete_project,
    find_project,
    project_errors,
)
from fakeservice.transfer import imports
from fakeservice.transfer.router import api
from fakeservice.transfer.views import import_summary, import_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, FILE, HASH, STR, Param
from fakeservice.web.routing import REQUIRED

MEGABYTE = 1024 * 1024
REMOTE_LIMIT = 10 * 1024**3
REMOTE_TYPES = ("application/gzip", "application/x-gzip", "application/x-tar")
COMMON = (
    Param("path", STR, required=True, description="Name and path of the new project"),
    Param("namespace", STR, description="The namespace's ID or path (default: the caller's)"),
    Param("name", STR, description="The project's name (default: the path)"),
    Param("overwrite", BOOL, default=False, description="Replace a project at that path"),
    Param("override_params", HASH, description="Project settings that win over the archive's"),
)


def _namespace(ctx: Context) -> Namespace:
    key = ctx.get("namespace")
    if key is None:
        return namespaces(ctx.store).rows[ctx.user.namespace_id]
    record_id = as_id(key)
    found = namespaces(ctx.store).get(record_id) if record_id else find_namespace(ctx.store, key)
    if found is None:
        raise NotFound("Namespace")
    if ctx.is_admin or (found.kind == "user" and found.owner_id == ctx.user.id):
        return found
    if found.kind == "group" and group_access(ctx.store, ctx.user, found, ctx.now) >= DEVELOPER:
        return found
    raise ValidationFailed({"namespace": ["is not valid"]})


def _start(ctx: Context, data: bytes) -> Any:
    """Create the project (replacing one at the path with ``overwrite``) and schedule its
    import; everything is checked before anything changes."""
    store, p = ctx.store, ctx.params
    namespace = _namespace(ctx)
    name, path = p.get("name") or p["path"], p["path"]
    existing = find_project(store, f"{namespace.full_path}/{path}")
    replace = existing if existing is not None and p.get("overwrite") else None
    if replace is not None and project_role(store, ctx.user, replace, ctx.now) < OWNER:
        raise ValidationFailed({"base": ["You are not allowed to overwrite this project"]})
    errors = project_errors(
        store,
        namespace,
        name=name,
        path=path,
        visibility="private",
        exclude=replace.id if replace is not None else None,
    )
    if errors:
        raise ValidationFailed(errors)
    if replace is not None:
        delete_project(store, replace)
    project = create_project(
        store,
        ctx.now,
        namespace=namespace,
        creator_id=ctx.user.id,
        name=name,
        path=path,
        import_status="none",
        repository_storage=preferred_storage(store),
    )
    if namespace.kind == "group" and group_access(store, ctx.user, namespace, ctx.now) < MAINTAINER:
        from fakeservice.members.models import PROJECT, add_member

        add_member(
            store, ctx.now, kind=PROJECT, source_id=project.id, user_id=ctx.user.id,
            access_level=MAINTAINER,
        )  # fmt: skip
    overrides = p.get("override_params") or {}
    record = imports.begin_import(store, project, ctx.user.id, data, overrides, ctx.now)
    return import_summary(project, record)


@api.post(
    "/projects/import",
    params=(Param("file", FILE, required=True, description="The export archive"), *COMMON),
    auth=REQUIRED,
)
def import_file(ctx: Context) -> Any:
    """Import a project from an export archive."""
    data = ctx.params["file"].data
    limit = current(ctx.store)["max_import_size"]
    if limit and len(data) > limit * MEGABYTE:
        size = len(data) / MEGABYTE
        raise BadRequest(
            f"File is too big ({size:.2f} MiB). Maximum size is {limit} MiB.", raw=True
        )
    return _start(ctx, data)


def _fetch(url: str) -> bytes:
    """The remote archive, with the service's checks on its headers."""
    try:
        answer = httpx.get(url, timeout=30.0, follow_redirects=True)
    except (httpx.HTTPError, ValueError) as error:
        raise BadRequest(
            f"Remote file could not be fetched: {type(error).__name__}", raw=True
        ) from error
    if answer.status_code != 200:
        raise BadRequest(f"Remote file could not be fetched: {answer.status_code}", raw=True)
    kind = answer.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind not in REMOTE_TYPES:
        allowed = ", ".join(REMOTE_TYPES)
        raise BadRequest(f"Content type '{kind}' not allowed. (Allowed: {allowed})", raw=True)
    length = answer.headers.get("content-length", "")
    if not length.isdigit() or int(length) != len(answer.content) or int(length) == 0:
        raise BadRequest("Missing content-length header", raw=True)
    if int(length) > REMOTE_LIMIT:
        raise BadRequest(f"Content length is too big ({length} > {REMOTE_LIMIT})", raw=True)
    return answer.content


@api.post(
    "/projects/remote-import",
    params=(Param("url", STR, required=True, description="Where the archive is"), *COMMON),
    auth=REQUIRED,
)
def import_remote(ctx: Context) -> Any:
    """Import a project from an archive at a URL (feature flag, off by default)."""
    if not enabled(ctx.store, "import_project_from_remote_file", [f"User:{ctx.user.id}"]):
        raise NotFound(message="404 Not Found")
    _namespace(ctx)
    return _start(ctx, _fetch(ctx.params["url"]))


@api.get("/projects/:id/import", params=(Param("id", STR, required=True),), auth=REQUIRED)
def import_status(ctx: Context) -> Any:
    """The project's import status."""
    project = project_with_role(ctx, MAINTAINER)
    return import_view(project, imports.find(ctx.store, project))
