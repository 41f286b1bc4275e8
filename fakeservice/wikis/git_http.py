"""A project wiki over git HTTP: clone, fetch and push at ``/<namespace>/<project>.wiki.git``
(outside ``/api/v4``), with the credentials git over HTTP takes for code
(:func:`fakeservice.repository.git_http.authenticate`).

Reading follows the wiki's access rules (the API's); pushing needs the Developer role and
a token scope ``api`` or ``write_repository``. A push writes the wiki repository the API
reads, so pages pushed with git are pages of the API at once.
"""

from __future__ import annotations

from typing import Any

from fakeservice.members.access import can_read_project, project_role
from fakeservice.projects.models import find_project
from fakeservice.repository import git_http as code
from fakeservice.repository.smart_http import RECEIVE_PACK, UPLOAD_PACK, handle
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.routing import NO_AUTH
from fakeservice.wikis.models import store_wiki
from fakeservice.wikis.router import api
from fakeservice.wikis.routes import project_owner

WIKI_DENIED = "You are not allowed to download code from this project.\n"


def _answer(ctx: Context, subpath: str, service: str | None) -> Response:
    try:
        caller = code.authenticate(ctx)
    except code._Refused as refusal:
        return refusal.response
    user = caller.user
    project = find_project(ctx.store, ctx.path_params["repo_path"].strip("/"))
    if project is None or not can_read_project(ctx.store, user, project, ctx.now):
        return code._challenge() if user is None else code._text(404, code.PROJECT_NOT_FOUND)
    owner = project_owner(ctx.store, project, project_role(ctx.store, user, project, ctx.now))
    pushing = service == RECEIVE_PACK
    if user is None and (pushing or not owner.readable):
        return code._challenge()
    if not owner.readable or (user is not None and not caller.scopes & code.READ_SCOPES):
        return code._text(403, WIKI_DENIED)
    can_push = pushing and bool(caller.scopes & code.WRITE_SCOPES) and owner.writable
    status, headers, body = handle(
        owner.wiki.repo,
        ctx.request.method,
        subpath,
        ctx.raw,
        ctx.request.headers,
        ctx.request.body,
        can_push=can_push,
        on_ref_update=lambda _updates: store_wiki(ctx.store, owner.wiki),
    )
    return Response(status, headers, body)


BASE = "/*repo_path.wiki.git"


@api.get(BASE + "/info/refs", auth=NO_AUTH, prefix="")
def wiki_info_refs(ctx: Context) -> Any:
    """git ref advertisement of a project wiki."""
    service = ctx.raw.get("service")
    return _answer(ctx, "/info/refs", service if isinstance(service, str) else None)


@api.post(BASE + "/" + UPLOAD_PACK, auth=NO_AUTH, prefix="")
def wiki_upload_pack(ctx: Context) -> Any:
    """git fetch and clone of a project wiki."""
    return _answer(ctx, "/" + UPLOAD_PACK, UPLOAD_PACK)


@api.post(BASE + "/" + RECEIVE_PACK, auth=NO_AUTH, prefix="")
def wiki_receive_pack(ctx: Context) -> Any:
    """git push to a project wiki."""
    return _answer(ctx, "/" + RECEIVE_PACK, RECEIVE_PACK)
