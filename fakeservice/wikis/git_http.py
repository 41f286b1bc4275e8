"""A project wiki over git HTTP: clone, fetch and push at ``/<namespace>/<project>.wiki.git``
(outside ``/api/v4``), with the credentials git over HTTP takes for code
(:func:`fakeservice.repository.git_http.register_smart_http` serves it with the wiki's
repository resolver).

Reading follows the wiki's access rules (the API's); pushing needs the Developer role and
a token scope ``api`` or ``write_repository``. A push writes the wiki repository the API
reads, so pages pushed with git are pages of the API at once.
"""

from __future__ import annotations

from fakeservice.members.access import can_read_project, project_role
from fakeservice.projects.models import find_project
from fakeservice.repository.git_http import (
    WRITE_SCOPES,
    GitCaller,
    GitTarget,
    hidden,
    read_refusal,
    register_smart_http,
)
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.wikis.models import store_wiki
from fakeservice.wikis.router import api
from fakeservice.wikis.routes import project_owner


def wiki_repository(ctx: Context, caller: GitCaller, pushing: bool) -> GitTarget | Response:
    """A project's wiki repository, as git over HTTP may reach it."""
    user = caller.user
    project = find_project(ctx.store, ctx.path_params["repo_path"].strip("/"))
    if project is None or not can_read_project(ctx.store, user, project, ctx.now):
        return hidden(user)
    owner = project_owner(ctx.store, project, project_role(ctx.store, user, project, ctx.now))
    refused = read_refusal(caller, owner.readable, pushing)
    if refused is not None:
        return refused
    return GitTarget(
        owner.wiki.repo,
        can_push=pushing and bool(caller.scopes & WRITE_SCOPES) and owner.writable,
        on_ref_update=lambda _updates: store_wiki(ctx.store, owner.wiki),
    )


register_smart_http(
    api, "/*repo_path.wiki.git", wiki_repository, name="wiki_", what=" of a project wiki"
)
