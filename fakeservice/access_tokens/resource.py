"""Project and group access tokens: list (``state``), get, create (a bot user made a member
at the token's access level), revoke, rotate and ``self/rotate``. Maintainers manage a
project's tokens, owners a group's; a token cannot carry a higher role than its creator's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.access_tokens.models import (
    RESOURCE_LIFETIME,
    check_expiry,
    create_resource_token,
    revoke_resource_token,
    rotate,
)
from fakeservice.access_tokens.router import api
from fakeservice.core.errors import BadRequest, Forbidden, NotFound, Unauthorized
from fakeservice.groups.lookup import find_group_or_404, group_access_level
from fakeservice.members.models import MAINTAINER, OWNER, PROJECT_LEVELS
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.tokens.models import SCOPES, AccessToken, tokens
from fakeservice.tokens.views import token_view
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import DATE, INT, STR, Array, Param
from fakeservice.web.routing import REQUIRED, renamer


@attrs.frozen
class Resource:
    """What differs between project and group tokens."""

    kind: str  # "project" or "group"
    collection: str  # "projects" or "groups"
    manager_level: int  # the role that manages tokens
    find: Callable[[Context, Any], Any]
    role: Callable[[Context, Any], int]


RESOURCES = (
    Resource("project", "projects", MAINTAINER, find_project_or_404, access_level),
    Resource("group", "groups", OWNER, find_group_or_404, group_access_level),
)

TOKEN_ID = Param("token_id", INT, required=True)
CREATE_PARAMS = (
    Param("name", STR, required=True, allow_blank=False),
    Param("scopes", Array(STR, scalar=True), required=True, values=SCOPES),
    Param("access_level", INT, default=MAINTAINER, values=PROJECT_LEVELS),
    Param("expires_at", DATE),
    Param("description", STR),
)


def resource_token_view(token: AccessToken, ctx: Context, *, with_secret: bool = False) -> Any:
    out = token_view(token, ctx.now, with_secret=with_secret)
    out["access_level"] = token.access_level
    out["resource_type"] = token.kind
    out["resource_id"] = token.resource_id
    return out


def _managed(ctx: Context, resource: Resource) -> tuple[Any, int]:
    """The resource of the path and the caller's role in it; 401 below the managing role."""
    record = resource.find(ctx, ctx.path_params["id"])
    role = resource.role(ctx, record)
    if role < resource.manager_level:
        raise Unauthorized()
    return record, role


def _token(ctx: Context, resource: Resource, record: Any) -> AccessToken:
    token = tokens(ctx.store).get(ctx.params["token_id"])
    if token is None or token.kind != resource.kind or token.resource_id != record.id:
        raise NotFound(
            message=f"404 Could not find {resource.kind} access token with token_id: "
            f"{ctx.params['token_id']}"
        )
    return token


def _declare(resource: Resource) -> None:
    base = f"/{resource.collection}/:id/access_tokens"
    kind = resource.kind
    named = renamer(f"{kind}_token")

    @api.get(
        base,
        params=(Param("state", STR, values=("active", "inactive")),),
        auth=REQUIRED,
        paginated=True,
        summary=f"List a {kind}'s access tokens (state active or inactive)",
    )
    @named
    def list_tokens(ctx: Context) -> Any:
        record, _ = _managed(ctx, resource)
        selection = tokens(ctx.store).select("resource", [(kind, record.id)])
        if "state" in ctx.params:
            wanted = ctx.params["state"] == "active"
            selection = selection.filter(lambda t: t.active(ctx.now) == wanted)
        return ctx.paginate(selection, lambda t: resource_token_view(t, ctx))

    @api.get(f"{base}/:token_id", params=(TOKEN_ID,), auth=REQUIRED,
             summary=f"Get a {kind} access token")  # fmt: skip
    @named
    def get_token(ctx: Context) -> Any:
        record, _ = _managed(ctx, resource)
        return resource_token_view(_token(ctx, resource, record), ctx)

    @api.post(base, params=CREATE_PARAMS, auth=REQUIRED,
              summary=f"Create a {kind} access token and its bot user")  # fmt: skip
    @named
    def create_token(ctx: Context) -> Any:
        p = ctx.params
        record = resource.find(ctx, ctx.path_params["id"])
        role = resource.role(ctx, record)
        if role < resource.manager_level:
            raise BadRequest(f"User does not have permission to create {kind} access token")
        if not p["scopes"]:
            raise BadRequest("Scopes can't be blank")
        if p["access_level"] > role:
            raise BadRequest(
                "Access level of the token can't be greater the access level of the user "
                "who created the token"
            )
        check_expiry(p.get("expires_at"), ctx.now)
        token = create_resource_token(
            ctx.store,
            ctx.now,
            kind=kind,
            resource_id=record.id,
            name=p["name"],
            scopes=p["scopes"],
            access_level=p["access_level"],
            expires_at=p.get("expires_at") or (ctx.now + RESOURCE_LIFETIME).date(),
            description=p.get("description"),
        )
        return resource_token_view(token, ctx, with_secret=True)

    @api.delete(f"{base}/:token_id", params=(TOKEN_ID,), auth=REQUIRED, status=204,
                summary=f"Revoke a {kind} access token")  # fmt: skip
    @named
    def revoke_token(ctx: Context) -> Any:
        record, _ = _managed(ctx, resource)
        revoke_resource_token(ctx.store, _token(ctx, resource, record))
        return None

    @api.post(
        f"{base}/:token_id/rotate",
        params=(TOKEN_ID, Param("expires_at", DATE)),
        auth=REQUIRED,
        summary=f"Rotate a {kind} access token (the old one is revoked)",
    )
    @named
    def rotate_token(ctx: Context) -> Any:
        record, role = _managed(ctx, resource)
        token = _token(ctx, resource, record)
        if (token.access_level or 0) > role:
            raise BadRequest("Not eligible to rotate token with access level higher than the user")
        new = rotate(ctx.store, ctx.now, token, ctx.params.get("expires_at"))
        return json_response(resource_token_view(new, ctx, with_secret=True), 200)

    @api.post(
        f"{base}/self/rotate",
        params=(Param("expires_at", DATE),),
        auth=REQUIRED,
        summary=f"Rotate the {kind} access token used for this request",
    )
    @named
    def rotate_self_token(ctx: Context) -> Any:
        record = resource.find(ctx, ctx.path_params["id"])
        token = ctx.caller.token
        if token is None or token.kind != kind or token.resource_id != record.id:
            raise Forbidden()
        new = rotate(ctx.store, ctx.now, token, ctx.params.get("expires_at"))
        return json_response(resource_token_view(new, ctx, with_secret=True), 200)


for _resource in RESOURCES:
    _declare(_resource)
