"""JSON shapes of deploy tokens (the secret only in the creation response) and deploy keys."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.deploy.tokens import DeployToken


def deploy_token_view(
    token: DeployToken, now: dt.datetime, *, with_secret: bool = False
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": token.id,
        "name": token.name,
        "username": token.username,
        "expires_at": iso(token.expires_at),
        "revoked": token.revoked,
        "expired": token.expired(now),
        "scopes": list(token.scopes),
    }
    if with_secret:
        out["token"] = token.token
    return out
