"""Deploy key endpoints: the instance list (administrators, with the projects each key
reaches), and a project's list, get, add, update (``title``, ``can_push``), delete and
enable (link a known key) for its Maintainers."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.keys.deploy import (
    DeployKeyLink,
    add_deploy_key,
    deploy_key,
    link,
    link_of,
    links,
    unlink,
)
from fakeservice.keys.models import SSHKey, ssh_keys
from fakeservice.keys.router import api
from fakeservice.keys.views import ssh_key_view
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import project_with_role
from fakeservice.projects.models import Project, projects
from fakeservice.projects.views import project_identity
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, INT, STR, AtLeastOne, Param
from fakeservice.web.routing import ADMIN, REQUIRED

PROJECT_ID = Param("id", STR, required=True)
KEY_ID = Param("key_id", INT, required=True)


def deploy_key_view(key: SSHKey) -> dict[str, Any]:
    out = ssh_key_view(key)
    del out["last_used_at"]
    out["fingerprint"] = key.fingerprint
    out["fingerprint_sha256"] = key.fingerprint_sha256
    return out


def _linked_view(ctx: Context, found: DeployKeyLink) -> dict[str, Any]:
    return {**deploy_key_view(ssh_keys(ctx.store).rows[found.key_id]), "can_push": found.can_push}


def _instance_view(ctx: Context, key: SSHKey) -> dict[str, Any]:
    reached = [
        (found.can_push, projects(ctx.store).rows[found.project_id])
        for found in links(ctx.store).select("key", [key.id])
    ]
    return {
        **deploy_key_view(key),
        "projects_with_write_access": [project_identity(p) for push, p in reached if push],
        "projects_with_readonly_access": [project_identity(p) for push, p in reached if not push],
    }


def _project(ctx: Context) -> Project:
    return project_with_role(ctx, MAINTAINER)


def _link(ctx: Context, project: Project) -> DeployKeyLink:
    found = link_of(ctx.store, ctx.params["key_id"], project.id)
    if found is None:
        raise NotFound("Deploy key")
    return found


@api.get("/deploy_keys", auth=ADMIN, paginated=True)
def list_deploy_keys(ctx: Context) -> Any:
    """Every deploy key, with the projects it may write to and read (administrators)."""
    return ctx.paginate(ssh_keys(ctx.store).select("deploy"), lambda k: _instance_view(ctx, k))


@api.get("/projects/:id/deploy_keys", params=(PROJECT_ID,), auth=REQUIRED, paginated=True)
def list_project_deploy_keys(ctx: Context) -> Any:
    """A project's deploy keys with their ``can_push``."""
    project = _project(ctx)
    selection = links(ctx.store).select("project", [project.id])
    return ctx.paginate(selection, lambda found: _linked_view(ctx, found))


@api.get("/projects/:id/deploy_keys/:key_id", params=(PROJECT_ID, KEY_ID), auth=REQUIRED)
def get_project_deploy_key(ctx: Context) -> Any:
    """One of a project's deploy keys."""
    return _linked_view(ctx, _link(ctx, _project(ctx)))


@api.post(
    "/projects/:id/deploy_keys",
    params=(
        PROJECT_ID,
        Param("title", STR, required=True),
        Param("key", STR, required=True),
        Param("can_push", BOOL, default=False),
        Param("expires_at", DATETIME),
    ),
    auth=REQUIRED,
)
def add_project_deploy_key(ctx: Context) -> Any:
    """Add a deploy key to a project (a known deploy key of the same fingerprint is linked)."""
    project = _project(ctx)
    p = ctx.params
    found = add_deploy_key(
        ctx.store,
        ctx.now,
        project.id,
        title=p["title"],
        key=p["key"],
        can_push=p["can_push"],
        expires_at=p.get("expires_at"),
    )
    return _linked_view(ctx, found)


@api.put(
    "/projects/:id/deploy_keys/:key_id",
    params=(PROJECT_ID, KEY_ID, Param("title", STR, allow_blank=False), Param("can_push", BOOL)),
    constraints=(AtLeastOne(("title", "can_push")),),
    auth=REQUIRED,
)
def update_project_deploy_key(ctx: Context) -> Any:
    """Change a deploy key's title and this project's ``can_push``."""
    found = _link(ctx, _project(ctx))
    if "title" in ctx.params:
        ssh_keys(ctx.store).rows[found.key_id].title = ctx.params["title"]
    if "can_push" in ctx.params:
        found.can_push = ctx.params["can_push"]
    return _linked_view(ctx, found)


@api.delete("/projects/:id/deploy_keys/:key_id", params=(PROJECT_ID, KEY_ID), auth=REQUIRED)
def delete_project_deploy_key(ctx: Context) -> Any:
    """Remove a deploy key from a project (the key goes when no project has it)."""
    unlink(ctx.store, _link(ctx, _project(ctx)))
    return None


@api.post("/projects/:id/deploy_keys/:key_id/enable", params=(PROJECT_ID, KEY_ID), auth=REQUIRED)
def enable_project_deploy_key(ctx: Context) -> Any:
    """Enable a known deploy key for a project."""
    project = _project(ctx)
    key = deploy_key(ctx.store, ctx.params["key_id"])
    if key is None:
        raise NotFound("Deploy key")
    link(ctx.store, ctx.now, key, project.id, can_push=False)
    return deploy_key_view(key)
