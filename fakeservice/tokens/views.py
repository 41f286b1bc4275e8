"""JSON shapes of access tokens (the secret only in the creation response)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.tokens.models import AccessToken


def token_view(
    token: AccessToken, now: dt.datetime, *, with_secret: bool = False
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": token.id,
        "name": token.name,
        "revoked": token.revoked,
        "created_at": iso(token.created_at),
        "description": token.description,
        "scopes": list(token.scopes),
        "user_id": token.user_id,
        "last_used_at": iso(token.last_used_at),
        "active": token.active(now),
        "expires_at": iso_date(token.expires_at),
    }
    if token.kind == "impersonation":
        out["impersonation"] = True
    if token.access_level is not None:
        out["access_level"] = token.access_level
    if with_secret:
        out["token"] = token.token
    return out
