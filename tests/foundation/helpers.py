"""Helpers shared by the foundation tests: raw requests, ``Link`` parsing and scenarios."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from fakeservice import FakeService
from fakeservice.web.http import Request, Response

HOST = "fakeservice.test"
BASE = f"http://{HOST}"

# Services checked for server errors after every test (see conftest.no_server_errors).
TRACKED: list[FakeService] = []


def track(service: FakeService) -> FakeService:
    """Have ``service`` checked for 500s after every test until :func:`untrack`."""
    TRACKED.append(service)
    return service


def untrack(service: FakeService) -> None:
    if service in TRACKED:
        TRACKED.remove(service)


def raw_request(
    svc: FakeService,
    method: str,
    raw_path: str,
    *,
    query_string: str = "",
    headers: Mapping[str, str] | None = None,
    body: bytes = b"",
    json_body: Any = None,
    form: Mapping[str, Any] | None = None,
    host: str = HOST,
    scheme: str = "http",
) -> Response:
    """Send a request exactly as given: no ``/api/v4`` prefix is added to ``raw_path``."""
    request = Request.build(
        method,
        raw_path,
        query_string=query_string,
        headers=headers,
        json_body=json_body,
        form=form,
        body=body,
        scheme=scheme,
        host=host,
    )
    return svc.handle(request)


def parse_link(value: str | None) -> list[tuple[str, str]]:
    """``Link`` header entries as ``(url, rel)`` in header order."""
    if not value:
        return []
    out = []
    for part in value.split(", <"):
        url, _, rel = part.partition(">; rel=")
        out.append((url.lstrip("<"), rel.strip('"')))
    return out


def link_map(response: Response) -> dict[str, str]:
    return dict((rel, url) for url, rel in parse_link(response.header("Link")))


def link_query(url: str) -> dict[str, str]:
    """The query of a ``Link`` URL as a flat dict (the last value wins)."""
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def follow(svc: FakeService, url: str, **kw: Any) -> Response:
    """GET an absolute URL taken from a ``Link`` header, in-process."""
    parts = urlsplit(url)
    return raw_request(svc, "GET", parts.path, query_string=parts.query, **kw)


def header_names(response: Response) -> list[str]:
    return [name for name, _ in response.headers]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_of(response: Response) -> Any:
    body = response.json()
    return body.get("error", body.get("message"))


# A small instance with one user for each authentication method and each visibility.
AUTH_SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {
            "username": "root",
            "name": "Administrator",
            "admin": True,
            "password": "correct-horse-battery",
            "tokens": [
                {"name": "admin", "token": "root-token", "scopes": ["api", "sudo"]},
                {"name": "nosudo", "token": "root-nosudo", "scopes": ["api"]},
                {"name": "ro-sudo", "token": "root-read-sudo", "scopes": ["read_api", "sudo"]},
            ],
            "oauth_tokens": [
                {"token": "root-oauth", "scopes": ["api", "sudo"]},
                {"token": "root-oauth-short", "scopes": ["api"], "expires_in": 60},
                {"token": "root-oauth-revoked", "scopes": ["api"], "revoked": True},
            ],
            "session": "root-session",
        },
        {
            "username": "alice",
            "name": "Alice",
            "password": "alice-password-1",
            "tokens": [
                {"name": "laptop", "token": "alice-token", "scopes": ["api"]},
                {"name": "old", "token": "alice-expired", "expires_at": "2026-01-01"},
                {"name": "later", "token": "alice-expires-soon", "expires_at": "2026-01-02"},
                {"name": "gone", "token": "alice-revoked", "revoked": True},
                {"name": "profile", "token": "alice-read-user", "scopes": ["read_user"]},
                {"name": "code", "token": "alice-read-repo", "scopes": ["read_repository"]},
            ],
            "oauth_tokens": [{"token": "alice-oauth", "scopes": ["api"]}],
            "impersonation_tokens": [{"name": "imp", "token": "alice-imp", "scopes": ["api"]}],
            "session": "alice-session",
        },
        {
            "username": "Bob",
            "name": "Bob",
            "tokens": [{"name": "ro", "token": "bob-read-token", "scopes": ["read_api"]}],
        },
        {
            "username": "carol",
            "name": "Carol",
            "external": True,
            "tokens": [{"name": "c", "token": "carol-token", "scopes": ["api"]}],
        },
        {
            "username": "dave",
            "name": "Dave",
            "state": "blocked",
            "tokens": [{"name": "d", "token": "dave-token", "scopes": ["api"]}],
            "session": "dave-session",
        },
    ],
    "groups": [
        {
            "path": "g",
            "visibility": "public",
            "members": [{"user": "alice", "role": "owner"}],
        }
    ],
    "projects": [
        {"path": "g/pub", "visibility": "public"},
        {"path": "g/int", "visibility": "internal"},
        {"path": "g/int-carol", "visibility": "internal", "members": [{"user": "carol"}]},
        {
            "path": "g/priv",
            "visibility": "private",
            "access_tokens": [{"name": "deploy", "token": "project-token", "role": "maintainer"}],
        },
        {"path": "g/other", "visibility": "private"},
    ],
}
