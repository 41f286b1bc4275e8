"""Who a request claims to be, without authenticating it: the token it presents and
that token's owner. Used where the control plane answers before the service does
(rate limits, faults), so throttles count per user and the journal names the user."""

from __future__ import annotations

from urllib.parse import parse_qsl

from fakeservice.core.store import Store
from fakeservice.tokens.models import AccessToken, find_secret
from fakeservice.users.models import User, users
from fakeservice.web.http import Request

TOKEN_PARAMS = ("private_token", "access_token", "job_token")


def presented_secret(request: Request) -> str | None:
    """The token a request carries: Bearer, PRIVATE-TOKEN, JOB-TOKEN, or a query token."""
    auth = request.header("authorization")
    if auth and auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    secret = request.header("private-token") or request.header("job-token")
    if secret:
        return secret
    if any(name in request.query_string for name in TOKEN_PARAMS):
        for key, value in parse_qsl(request.query_string):
            if key in TOKEN_PARAMS and value:
                return value
    return None


def presented_token(store: Store, request: Request) -> AccessToken | None:
    secret = presented_secret(request)
    return find_secret(store, secret) if secret else None


def token_owner(store: Store, request: Request) -> User | None:
    token = presented_token(store, request)
    return users(store).get(token.user_id) if token is not None else None
