"""Deploy token endpoints: the instance list (administrators, ``active``), and list, get,
create and delete on projects and groups (Maintainer and above)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.deploy.router import api
from fakeservice.deploy.tokens import (
    GROUP,
    PROJECT,
    SCOPES,
    DeployToken,
    create_deploy_token,
    deploy_tokens,
)
from fakeservice.deploy.views import deploy_token_view
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, INT, STR, Array, Param
from fakeservice.web.routing import ADMIN, REQUIRED, renamer

ACTIVE = Param("active", BOOL)
TOKEN_ID = Param("token_id", INT, required=True)
CREATE_PARAMS = (
    Param("name", STR, required=True, allow_blank=False),
    Param("scopes", Array(STR, scalar=True), required=True, values=SCOPES),
    Param("expires_at", DATETIME),
    Param("username", STR),
)


def _listed(ctx: Context, partitions: list[Any] | None) -> Any:
    table = deploy_tokens(ctx.store)
    selection = table.select() if partitions is None else table.select("owner", partitions)
    if "active" in ctx.params:
        wanted = ctx.params["active"]
        selection = selection.filter(lambda t: t.active(ctx.now) == wanted)
    return ctx.paginate(selection, lambda t: deploy_token_view(t, ctx.now))


@api.get("/deploy_tokens", params=(ACTIVE,), auth=ADMIN, paginated=True)
def list_deploy_tokens(ctx: Context) -> Any:
    """Every deploy token of the instance (administrators; ``active`` filters)."""
    return _listed(ctx, None)


def _declare(kind: str, collection: str, owner: Callable[[Context], Any]) -> None:
    base = f"/{collection}/:id/deploy_tokens"
    named = renamer(f"{kind}_token")

    def found(ctx: Context, record: Any) -> DeployToken:
        token = deploy_tokens(ctx.store).get(ctx.params["token_id"])
        if token is None or (token.owner_kind, token.owner_id) != (kind, record.id):
            raise NotFound("Deploy Token")
        return token

    @api.get(base, params=(ACTIVE,), auth=REQUIRED, paginated=True,
             summary=f"List a {kind}'s deploy tokens (``active`` filters)")  # fmt: skip
    @named
    def list_tokens(ctx: Context) -> Any:
        return _listed(ctx, [(kind, owner(ctx).id)])

    @api.get(f"{base}/:token_id", params=(TOKEN_ID,), auth=REQUIRED,
             summary=f"Get a {kind} deploy token")  # fmt: skip
    @named
    def get_token(ctx: Context) -> Any:
        return deploy_token_view(found(ctx, owner(ctx)), ctx.now)

    @api.post(base, params=CREATE_PARAMS, auth=REQUIRED,
              summary=f"Create a {kind} deploy token")  # fmt: skip
    @named
    def create_token(ctx: Context) -> Any:
        p = ctx.params
        token = create_deploy_token(
            ctx.store,
            ctx.now,
            owner_kind=kind,
            owner_id=owner(ctx).id,
            name=p["name"],
            scopes=p["scopes"],
            username=p.get("username") or None,
            expires_at=p.get("expires_at"),
        )
        return deploy_token_view(token, ctx.now, with_secret=True)

    @api.delete(f"{base}/:token_id", params=(TOKEN_ID,), auth=REQUIRED,
                summary=f"Delete a {kind} deploy token")  # fmt: skip
    @named
    def delete_token(ctx: Context) -> Any:
        deploy_tokens(ctx.store).delete(found(ctx, owner(ctx)))
        return None


def _project(ctx: Context) -> Any:
    project = find_project_or_404(ctx, ctx.path_params["id"])
    require_access(ctx, project, MAINTAINER)
    return project


def _group(ctx: Context) -> Any:
    group = find_group_or_404(ctx, ctx.path_params["id"])
    require_group_access(ctx, group, MAINTAINER)
    return group


_declare(PROJECT, "projects", _project)
_declare(GROUP, "groups", _group)
