"""Runner endpoints that work with tokens: registration with a registration token
(``POST /runners``), deletion, verification and authentication-token reset with the
runner's own token, creation by a signed-in user (``POST /user/runners``, ``glrt-``
tokens), and the resets of the instance's, a project's and a group's registration
tokens."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, ParamError
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.runners import registration
from fakeservice.runners.fields import ACTIVE_OR_PAUSED, EDIT_PARAMS, changes
from fakeservice.runners.models import (
    GROUP,
    INSTANCE,
    PROJECT,
    RUNNER_TYPES,
    Runner,
    create_runner,
    new_token,
    rotate_token,
    runners,
)
from fakeservice.runners.notify import runners_changed
from fakeservice.runners.router import api
from fakeservice.runners.views import token_view
from fakeservice.web.context import Context
from fakeservice.web.params import HASH, INT, STR, Param
from fakeservice.web.routing import ADMIN, PUBLIC, REQUIRED

TOKEN = Param("token", STR, required=True, description="the runner's authentication token")
_KIND_TYPES = {
    registration.INSTANCE: INSTANCE,
    registration.GROUP: GROUP,
    registration.PROJECT: PROJECT,
}


def _by_token(ctx: Context) -> Runner:
    runner = runners(ctx.store).by("token", ctx.params["token"])
    if runner is None:
        raise Forbidden()
    return runner


@api.post(
    "/runners",
    params=(
        Param("token", STR, required=True, description="a registration token"),
        Param("info", HASH, description="name, version, revision, platform, architecture"),
        *EDIT_PARAMS,
    ),
    constraints=(ACTIVE_OR_PAUSED,),
    auth=PUBLIC,
)
def register(ctx: Context) -> Any:
    """Register a runner with the instance's, a group's or a project's registration token."""
    owner = registration.owner_of(ctx.store, ctx.params["token"])
    if owner is None:
        raise Forbidden()
    kind, owner_id = owner
    runner = create_runner(
        ctx.store,
        ctx.now,
        runner_type=_KIND_TYPES[kind],
        token=new_token(ctx.store),
        group_id=owner_id if kind == registration.GROUP else None,
        project_ids=(owner_id,) if kind == registration.PROJECT else (),
        fields=changes(ctx.params),
        info=ctx.params.get("info"),
        contacted_at=ctx.now,
    )
    runners_changed(ctx)
    return token_view(runner)


@api.delete("/runners", params=(TOKEN,), auth=PUBLIC)
def unregister(ctx: Context) -> Any:
    """Delete the runner whose authentication token is given."""
    runners(ctx.store).delete(_by_token(ctx))
    return None


@api.post("/runners/verify", params=(TOKEN, Param("system_id", STR)), auth=PUBLIC, status=200)
def verify(ctx: Context) -> Any:
    """Check a runner's authentication token (the runner contacts the service)."""
    runner = _by_token(ctx)
    runners(ctx.store).update(runner, contacted_at=ctx.now)
    return token_view(runner)


@api.post("/runners/reset_authentication_token", params=(TOKEN,), auth=PUBLIC)
def reset_own_token(ctx: Context) -> Any:
    """A new authentication token, asked with the current one."""
    runner = _by_token(ctx)
    rotate_token(ctx.store, runner)
    return token_view(runner, with_id=False)


def _registration_answer(token: str) -> dict[str, Any]:
    return {"token": token, "token_expires_at": None}


@api.post("/runners/reset_registration_token", auth=ADMIN)
def reset_instance_registration_token(ctx: Context) -> Any:
    """A new registration token for instance runners (administrators)."""
    return _registration_answer(registration.set_token(ctx.store, registration.INSTANCE, 0))


@api.post("/projects/:id/runners/reset_registration_token", auth=REQUIRED)
def reset_project_registration_token(ctx: Context) -> Any:
    """A new registration token for a project's runners (Maintainer and above)."""
    project = find_project_or_404(ctx, ctx.path_params["id"])
    require_access(ctx, project, MAINTAINER)
    token = registration.set_token(ctx.store, registration.PROJECT, project.id)
    return _registration_answer(token)


@api.post("/groups/:id/runners/reset_registration_token", auth=REQUIRED)
def reset_group_registration_token(ctx: Context) -> Any:
    """A new registration token for a group's runners (owners)."""
    group = find_group_or_404(ctx, ctx.path_params["id"])
    require_group_access(ctx, group, OWNER)
    return _registration_answer(registration.set_token(ctx.store, registration.GROUP, group.id))


@api.post(
    "/user/runners",
    params=(
        Param("runner_type", STR, required=True, values=RUNNER_TYPES),
        Param("group_id", INT),
        Param("project_id", INT),
        *EDIT_PARAMS,
    ),
    constraints=(ACTIVE_OR_PAUSED,),
    auth=REQUIRED,
)
def create_for_user(ctx: Context) -> Any:
    """Create a runner as the signed-in user: an instance runner (administrators), a
    group runner (the group's owners) or a project runner (its maintainers)."""
    p = ctx.params
    kind = p["runner_type"]
    group_id: int | None = None
    project_ids: tuple[int, ...] = ()
    if kind == INSTANCE:
        if not ctx.is_admin:
            raise Forbidden()
    elif kind == GROUP:
        if p.get("group_id") is None:
            raise ParamError("group_id is missing")
        group = find_group_or_404(ctx, p["group_id"])
        require_group_access(ctx, group, OWNER)
        group_id = group.id
    else:
        if p.get("project_id") is None:
            raise ParamError("project_id is missing")
        project = find_project_or_404(ctx, p["project_id"])
        require_access(ctx, project, MAINTAINER)
        project_ids = (project.id,)
    runner = create_runner(
        ctx.store,
        ctx.now,
        runner_type=kind,
        token=new_token(ctx.store, "glrt-"),
        group_id=group_id,
        project_ids=project_ids,
        fields=changes(p),
        creator_id=ctx.user.id,
    )
    runners_changed(ctx)
    return token_view(runner)
