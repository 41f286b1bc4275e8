"""Who is calling: token lookup in the service's order, scopes, sudo, and the auth rules.

Order (FIDELITY): a Bearer value is tried as an OAuth token, then as a personal /
project / impersonation token; then ``private_token`` (query), ``PRIVATE-TOKEN``
(header), ``access_token`` (query, OAuth); job tokens (``JOB-TOKEN``, ``job_token``,
Bearer) only on endpoints that accept them; then the ``_service_session`` cookie.
A presented token that is unknown, expired or revoked is a 401 even on public endpoints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import (
    Forbidden,
    InsufficientScope,
    InvalidToken,
    NotFound,
    ParamError,
    Unauthorized,
)
from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.tokens.models import AccessToken, find_secret
from fakeservice.users.models import User, find_by_id_or_username, users
from fakeservice.web.http import Request
from fakeservice.web.routing import ADMIN, NO_AUTH, REQUIRED, Endpoint

SESSION_COOKIE = "_service_session"
READ_METHODS = frozenset({"GET", "HEAD"})

# Listened to by the CI area (``setup.listen(JOB_TOKEN_LOOKUP, lookup)``): a job token
# secret -> (job record, is_running, user id) or None.
JOB_TOKEN_LOOKUP = "job_token.lookup"
JobTokenLookup = Callable[[Store, str], tuple[Any, bool, int] | None]


@attrs.define(slots=True)
class Caller:
    """The identity a request runs as."""

    user: User | None = None
    method: str | None = None  # oauth, personal, project, group, impersonation, job, session
    token: AccessToken | None = None
    scopes: frozenset[str] = frozenset()
    job: Any = None
    sudo_by: User | None = None

    @property
    def is_admin(self) -> bool:
        return self.user is not None and self.user.admin

    @property
    def authenticated(self) -> bool:
        return self.user is not None


def _bearer(request: Request) -> str | None:
    value = request.header("authorization")
    if value and value[:7].lower() == "bearer ":
        return value[7:].strip()
    return None


def _token_caller(store: Store, token: AccessToken, now: Any, *, oauth: bool) -> Caller:
    if token.revoked:
        raise InvalidToken(
            "Token was revoked. You have to re-authorize from the user."
            if oauth
            else "Token has been revoked."
        )
    if token.expired(now):
        raise InvalidToken(
            "Token is expired. You can either do re-authorization or token refresh."
            if oauth
            else "Token has expired."
        )
    user = users(store).get(token.user_id)
    if user is None:
        raise Unauthorized()
    return Caller(user=user, method=token.kind, token=token, scopes=frozenset(token.scopes))


def identify(
    store: Store, request: Request, query: dict[str, Any], endpoint: Endpoint, now: Any
) -> Caller:
    """Find the caller from the request's credentials (no permission checks yet)."""
    if endpoint.auth == NO_AUTH:
        return Caller()
    bearer = _bearer(request)
    if bearer:
        token = find_secret(store, bearer)
        if token is not None and token.kind == "oauth":
            return _token_caller(store, token, now, oauth=True)
        if token is not None:
            return _token_caller(store, token, now, oauth=False)
        if endpoint.job_token:
            found = _job_caller(store, bearer)
            if found is not None:
                return found
        raise Unauthorized()
    for secret in (_str(query.get("private_token")), request.header("private-token")):
        if secret:
            token = find_secret(store, secret)
            if token is None or token.kind == "oauth":
                raise Unauthorized()
            return _token_caller(store, token, now, oauth=False)
    access_token = _str(query.get("access_token"))
    if access_token:
        token = find_secret(store, access_token)
        if token is None or token.kind != "oauth":
            raise Unauthorized()
        return _token_caller(store, token, now, oauth=True)
    if endpoint.job_token:
        secret = request.header("job-token") or _str(query.get("job_token"))
        if secret:
            found = _job_caller(store, secret)
            if found is None:
                raise Unauthorized()
            return found
    cookie = request.cookies().get(SESSION_COOKIE)
    if cookie and request.method in READ_METHODS:
        sessions: dict[str, int] = store.extras.get("sessions", {})
        user_id = sessions.get(cookie)
        user = users(store).get(user_id) if user_id is not None else None
        if user is not None:
            return Caller(user=user, method="session", scopes=frozenset({"api"}))
    return Caller()


def _job_caller(store: Store, secret: str) -> Caller | None:
    for lookup in listeners(store, JOB_TOKEN_LOOKUP):
        found = lookup(store, secret)
        if found is None:
            continue
        job, running, user_id = found
        if not running:
            raise Unauthorized()
        user = users(store).get(user_id)
        return Caller(user=user, method="job", job=job, scopes=frozenset({"api"}))
    return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def sufficient_scopes(endpoint: Endpoint, method: str) -> list[str]:
    if method in READ_METHODS:
        return ["api", "read_api", *endpoint.read_scopes]
    return ["api"]


def authorize(
    store: Store, caller: Caller, request: Request, query: dict[str, Any], endpoint: Endpoint
) -> Caller:
    """Apply blocked-user, scope, sudo and the endpoint's auth rule; return the acting caller."""
    if endpoint.auth == NO_AUTH:
        return caller
    user = caller.user
    if user is not None and user.state in ("blocked", "blocked_pending_approval"):
        raise Forbidden("Your account has been blocked.")
    if caller.token is not None:
        allowed = sufficient_scopes(endpoint, request.method)
        if not caller.scopes & set(allowed):
            raise InsufficientScope(allowed)
    given = query.get("sudo")
    if given is not None and (isinstance(given, bool) or not isinstance(given, str | int)):
        raise ParamError("sudo is invalid")  # a single value; an array is not a user
    sudo = request.header("sudo") or _str(given)
    if isinstance(given, int):
        sudo = str(query["sudo"])
    if sudo:
        caller = _sudo(store, caller, sudo)
    if endpoint.auth in (REQUIRED, ADMIN) and caller.user is None:
        raise Unauthorized()
    if endpoint.auth == ADMIN and not caller.is_admin:
        raise Forbidden()
    return caller


def _sudo(store: Store, caller: Caller, identifier: str) -> Caller:
    if caller.user is None:
        raise Unauthorized()
    if not caller.user.admin:
        raise Forbidden("Must be admin to use sudo")
    if caller.method not in ("oauth", "personal", "impersonation"):
        raise Forbidden("Must be authenticated using an OAuth or personal access token to use sudo")
    if "sudo" not in caller.scopes:
        raise InsufficientScope(["sudo"])
    target = find_by_id_or_username(store, identifier)
    if target is None:
        raise NotFound(message=f"404 User with ID or username '{identifier}' Not Found")
    return attrs.evolve(caller, user=target, sudo_by=caller.user)
