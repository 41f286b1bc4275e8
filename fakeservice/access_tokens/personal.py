"""Rotating personal access tokens: by id (own, or anyone's for administrators) and
``self`` (the token of the request)."""

from __future__ import annotations

from typing import Any

from fakeservice.access_tokens.models import rotate
from fakeservice.access_tokens.router import api
from fakeservice.core.errors import Forbidden
from fakeservice.tokens.routes import visible_token
from fakeservice.tokens.views import token_view
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import DATE, INT, Param
from fakeservice.web.routing import REQUIRED

EXPIRES = Param("expires_at", DATE)


@api.post(
    "/personal_access_tokens/:token_id/rotate",
    params=(Param("token_id", INT, required=True), EXPIRES),
    auth=REQUIRED,
)
def rotate_token(ctx: Context) -> Any:
    """Rotate a token by id: the old one is revoked, the new one expires in a week by default."""
    token = rotate(ctx.store, ctx.now, visible_token(ctx), ctx.params.get("expires_at"))
    return json_response(token_view(token, ctx.now, with_secret=True), 200)


@api.post("/personal_access_tokens/self/rotate", params=(EXPIRES,), auth=REQUIRED)
def rotate_self(ctx: Context) -> Any:
    """Rotate the personal access token used for this request."""
    token = ctx.caller.token
    if token is None or token.kind != "personal":
        raise Forbidden()
    token = rotate(ctx.store, ctx.now, token, ctx.params.get("expires_at"))
    return json_response(token_view(token, ctx.now, with_secret=True), 200)
