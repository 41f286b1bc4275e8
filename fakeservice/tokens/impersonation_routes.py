"""A user's impersonation tokens (administrators): ``GET /users/:user_id/
impersonation_tokens`` (``state``: all, active or inactive; paginated) and one by id,
as the real service lists them (never with the secret)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound, or_404
from fakeservice.tokens.models import tokens
from fakeservice.tokens.router import api
from fakeservice.tokens.views import token_view
from fakeservice.users.models import live_user
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import ADMIN

USER_ID = Param("user_id", INT, required=True)


@api.get(
    "/users/:user_id/impersonation_tokens",
    params=(USER_ID, Param("state", STR, default="all", values=("all", "active", "inactive"))),
    auth=ADMIN,
    paginated=True,
)
def list_impersonation_tokens(ctx: Context) -> Response:
    """A user's impersonation tokens, oldest first."""
    user = or_404(live_user(ctx.store, ctx.params["user_id"]), "User")
    state, now = ctx.params["state"], ctx.now
    selection = (
        tokens(ctx.store)
        .select("user", [user.id])
        .filter(
            lambda t: (
                t.kind == "impersonation"
                and (state == "all" or t.active(now) == (state == "active"))
            )
        )
    )
    return ctx.paginate(selection, lambda t: token_view(t, now))


@api.get(
    "/users/:user_id/impersonation_tokens/:impersonation_token_id",
    params=(USER_ID, Param("impersonation_token_id", INT, required=True)),
    auth=ADMIN,
)
def get_impersonation_token(ctx: Context) -> Any:
    """One impersonation token of a user."""
    user = or_404(live_user(ctx.store, ctx.params["user_id"]), "User")
    token = tokens(ctx.store).get(ctx.params["impersonation_token_id"])
    if token is None or token.user_id != user.id or token.kind != "impersonation":
        raise NotFound("Impersonation Token")
    return token_view(token, ctx.now)
