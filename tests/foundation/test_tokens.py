"""Access tokens: administrators issue personal and impersonation tokens, a caller reads and
revokes its own, and ``POST /oauth/token`` issues OAuth tokens by password and refresh grants
(seed 000 §5)."""

from __future__ import annotations

from typing import Any

import pytest

from fakeservice import FakeService

from .helpers import bearer, raw_request

TOKEN_FIELDS = {
    "id", "name", "revoked", "created_at", "description", "scopes", "user_id", "last_used_at",
    "active", "expires_at",
}  # fmt: skip
INVALID_GRANT = {
    "error": "invalid_grant",
    "error_description": "The provided authorization grant is invalid, expired, revoked, does not "
    "match the redirection URI used in the authorization request, or was issued to another client.",
}


def issue(
    service: FakeService, kind: str = "personal_access_tokens", user: int = 2, **body: Any
) -> Any:
    payload = {"name": "made", "scopes": ["api"], **body}
    return service.request("POST", f"/users/{user}/{kind}", json_body=payload, token="root-token")


# -- personal and impersonation tokens ---------------------------------------------------------------------


def test_an_administrator_creates_a_personal_token(svc: FakeService) -> None:
    response = issue(
        svc, scopes=["read_api", "read_user"], expires_at="2026-02-01", description="ci"
    )
    assert response.status == 201
    body = response.json()
    assert set(body) == TOKEN_FIELDS | {"token"}
    expected = {
        "name": "made",
        "revoked": False,
        "created_at": "2026-01-01T09:00:00Z",
        "description": "ci",
        "scopes": ["read_api", "read_user"],
        "user_id": 2,
        "last_used_at": None,
        "active": True,
        "expires_at": "2026-02-01",
    }
    assert {k: body[k] for k in expected} == expected
    me = svc.request("GET", "/user", token=body["token"])
    assert me.json()["username"] == "alice"
    write = svc.request("POST", "/projects", json_body={"name": "n"}, token=body["token"])
    assert write.status == 403


def test_a_created_token_expires_on_its_date(svc: FakeService) -> None:
    secret = issue(svc, expires_at="2026-01-02").json()["token"]
    assert svc.request("GET", "/user", token=secret).status == 200
    svc.clock.advance(days=1)
    response = svc.request("GET", "/user", token=secret)
    assert response.status == 401
    assert response.json()["error_description"] == "Token has expired."


def test_an_administrator_creates_an_impersonation_token(svc: FakeService) -> None:
    response = issue(svc, kind="impersonation_tokens", user=3, name="imp")
    assert response.status == 201
    body = response.json()
    assert body["impersonation"] is True
    assert (body["user_id"], body["name"], body["active"]) == (3, "imp", True)
    assert svc.request("GET", "/user", token=body["token"]).json()["username"] == "bob"
    assert svc.request("GET", "/user", headers=bearer(body["token"])).json()["username"] == "bob"


@pytest.mark.parametrize(
    ("body", "status", "answer"),
    [
        ({"scopes": ["bogus"]}, 400, {"error": "scopes does not have a valid value"}),
        ({"scopes": ["api", "bogus"]}, 400, {"error": "scopes does not have a valid value"}),
        ({"name": ""}, 400, {"error": "name is empty"}),
        ({"expires_at": "tomorrow"}, 400, {"error": "expires_at is invalid"}),
        ({"expires_at": "2025-12-31"}, 400, {"message": {"expires_at": ["must be in the future"]}}),
        ({"expires_at": "2025-06-01"}, 400, {"message": {"expires_at": ["must be in the future"]}}),
    ],
)
def test_token_creation_errors(
    svc: FakeService, body: dict[str, Any], status: int, answer: Any
) -> None:
    response = issue(svc, **body)
    assert (response.status, response.json()) == (status, answer)


def test_token_creation_for_an_unknown_user(svc: FakeService) -> None:
    response = issue(svc, user=999)
    assert (response.status, response.json()) == (404, {"message": "404 User Not Found"})


@pytest.mark.parametrize("kind", ["personal_access_tokens", "impersonation_tokens"])
def test_token_creation_needs_an_administrator(svc: FakeService, kind: str) -> None:
    response = svc.request(
        "POST", f"/users/2/{kind}", json_body={"name": "x", "scopes": ["api"]}, token="alice-token"
    )
    assert (response.status, response.json()) == (403, {"message": "403 Forbidden"})
    anonymous = svc.request("POST", f"/users/2/{kind}", json_body={"name": "x", "scopes": ["api"]})
    assert anonymous.status == 401


# -- the caller's own token ----------------------------------------------------------------------------------


def test_personal_access_tokens_self(svc: FakeService) -> None:
    response = svc.request("GET", "/personal_access_tokens/self", token="alice-token")
    assert response.status == 200
    body = response.json()
    assert set(body) == TOKEN_FIELDS
    assert (body["name"], body["user_id"], body["scopes"], body["revoked"]) == (
        "laptop", 2, ["api"], False
    )  # fmt: skip
    through_bearer = svc.request(
        "GET", "/personal_access_tokens/self", headers=bearer("alice-token")
    )
    assert through_bearer.json() == body
    assert svc.request("GET", "/personal_access_tokens/self").status == 401


def test_read_api_may_read_its_own_token(svc: FakeService) -> None:
    body = svc.request("GET", "/personal_access_tokens/self", token="bob-read-token").json()
    assert body["scopes"] == ["read_api"]


def test_revoke_self(svc: FakeService) -> None:
    secret = issue(svc).json()["token"]
    response = svc.request("DELETE", "/personal_access_tokens/self", token=secret)
    assert (response.status, response.body) == (204, b"")
    after = svc.request("GET", "/user", token=secret)
    assert after.status == 401
    assert after.json() == {
        "error": "invalid_token",
        "error_description": "Token has been revoked.",
    }
    assert svc.request("GET", "/user", token="alice-token").status == 200


def test_revoke_by_id(svc: FakeService) -> None:
    made = issue(svc).json()
    own = svc.request("GET", f"/personal_access_tokens/{made['id']}", token="alice-token")
    assert own.json()["id"] == made["id"]
    other = svc.request("DELETE", f"/personal_access_tokens/{made['id']}", token="carol-token")
    assert (other.status, other.json()) == (404, {"message": "404 Not found"})
    assert svc.request("GET", "/user", token=made["token"]).status == 200
    response = svc.request("DELETE", f"/personal_access_tokens/{made['id']}", token="root-token")
    assert response.status == 204
    assert svc.request("GET", "/user", token=made["token"]).status == 401
    listed = svc.request("GET", "/personal_access_tokens", token="alice-token").json()
    assert [t["revoked"] for t in listed if t["id"] == made["id"]] == [True]


def test_list_tokens(svc: FakeService) -> None:
    issue(svc, name="second")
    own = svc.request("GET", "/personal_access_tokens", token="alice-token")
    assert [t["name"] for t in own.json()] == ["laptop", "second"]
    assert own.header("X-Total") == "2"
    assert "token" not in own.json()[0]
    admin = svc.request("GET", "/personal_access_tokens?user_id=2", token="root-token")
    assert [t["name"] for t in admin.json()] == ["laptop", "second"]
    forbidden = svc.request("GET", "/personal_access_tokens?user_id=1", token="alice-token")
    assert forbidden.status == 401  # the documented answer to another user_id


# -- OAuth ---------------------------------------------------------------------------------------------------


def oauth(service: FakeService, path: str = "/oauth/token", form: bool = False, **body: Any) -> Any:
    if form:
        return raw_request(service, "POST", path, form=body)
    return raw_request(service, "POST", path, json_body=body)


def password_grant(service: FakeService, **extra: Any) -> Any:
    return oauth(
        service,
        grant_type="password",
        username="root",
        password="correct-horse-battery",
        **extra,
    )


def test_password_grant(svc: FakeService) -> None:
    response = password_grant(svc)
    assert response.status == 200
    body = response.json()
    assert set(body) == {
        "access_token",
        "token_type",
        "expires_in",
        "refresh_token",
        "scope",
        "created_at",
    }
    assert (body["token_type"], body["expires_in"], body["scope"]) == ("Bearer", 7200, "api")
    assert body["created_at"] == 1767258000
    me = svc.request("GET", "/user", headers=bearer(body["access_token"]))
    assert me.json()["username"] == "root"
    query = svc.request("GET", f"/user?access_token={body['access_token']}")
    assert query.json()["username"] == "root"
    as_private = svc.request("GET", "/user", token=body["access_token"])
    assert as_private.status == 401


def test_password_grant_with_a_form_body_and_scopes(svc: FakeService) -> None:
    response = oauth(
        svc,
        form=True,
        grant_type="password",
        username="ROOT",
        password="correct-horse-battery",
        scope="read_api sudo",
    )
    body = response.json()
    assert body["scope"] == "read_api sudo"
    headers = {**bearer(body["access_token"]), "Sudo": "alice"}
    assert svc.request("GET", "/user", headers=headers).json()["username"] == "alice"
    write = svc.request(
        "POST", "/projects", json_body={"name": "x"}, headers=bearer(body["access_token"])
    )
    assert write.json()["scope"] == "api"


def test_oauth_tokens_expire(svc: FakeService) -> None:
    token = password_grant(svc).json()["access_token"]
    svc.clock.advance(seconds=7199)
    assert svc.request("GET", "/user", headers=bearer(token)).status == 200
    svc.clock.advance(seconds=1)
    response = svc.request("GET", "/user", headers=bearer(token))
    assert response.status == 401
    assert response.json() == {
        "error": "invalid_token",
        "error_description": "Token is expired. You can either do re-authorization or token refresh.",
    }
    assert response.header("WWW-Authenticate").startswith('Bearer realm="Protected by OAuth 2.0"')


def test_refresh_grant(svc: FakeService) -> None:
    first = password_grant(svc, scope="api sudo").json()
    svc.clock.advance(seconds=8000)
    refreshed = oauth(svc, grant_type="refresh_token", refresh_token=first["refresh_token"])
    assert refreshed.status == 200
    second = refreshed.json()
    assert second["access_token"] != first["access_token"]
    assert second["refresh_token"] != first["refresh_token"]
    assert (second["scope"], second["expires_in"]) == ("api sudo", 7200)
    assert svc.request("GET", "/user", headers=bearer(second["access_token"])).status == 200
    old = svc.request("GET", "/user", headers=bearer(first["access_token"]))
    assert old.json()["error_description"] == (
        "Token was revoked. You have to re-authorize from the user."
    )
    reused = oauth(svc, grant_type="refresh_token", refresh_token=first["refresh_token"])
    assert (reused.status, reused.json()) == (400, INVALID_GRANT)


@pytest.mark.parametrize(
    ("body", "answer"),
    [
        ({"grant_type": "password", "username": "root", "password": "wrong"}, INVALID_GRANT),
        ({"grant_type": "password", "username": "nobody", "password": "x"}, INVALID_GRANT),
        ({"grant_type": "password", "username": "alice", "password": ""}, INVALID_GRANT),
        ({"grant_type": "refresh_token", "refresh_token": "nope"}, INVALID_GRANT),
        (
            {"grant_type": "client_credentials"},
            {
                "error": "unsupported_grant_type",
                "error_description": "The authorization grant type is not supported by the "
                "authorization server.",
            },
        ),
        (
            {
                "grant_type": "password",
                "username": "root",
                "password": "correct-horse-battery",
                "scope": "api everything",
            },
            {
                "error": "invalid_scope",
                "error_description": "The requested scope is invalid, unknown, or malformed.",
            },
        ),
        ({}, {"error": "grant_type is missing"}),
    ],
)
def test_oauth_errors(svc: FakeService, body: dict[str, Any], answer: Any) -> None:
    response = oauth(svc, **body)
    assert (response.status, response.json()) == (400, answer)


def test_oauth_revoke(svc: FakeService) -> None:
    token = password_grant(svc).json()["access_token"]
    response = oauth(svc, "/oauth/revoke", token=token)
    assert (response.status, response.json()) == (200, {})
    after = svc.request("GET", "/user", headers=bearer(token))
    assert after.json()["error"] == "invalid_token"
    unknown = oauth(svc, "/oauth/revoke", token="never-issued")
    assert unknown.status == 200


def test_the_token_endpoint_is_outside_the_api(svc: FakeService) -> None:
    response = svc.request("POST", "/api/v4/oauth/token", json_body={"grant_type": "password"})
    assert (response.status, response.json()) == (404, {"error": "404 Not Found"})


def test_a_blocked_user_gets_no_oauth_token(svc: FakeService) -> None:
    made = svc.request(
        "POST",
        "/users",
        json_body={
            "email": "z@example.com",
            "name": "Z",
            "username": "zed",
            "password": "pw-123456",
        },
        token="root-token",
    ).json()
    grant = {"grant_type": "password", "username": "zed", "password": "pw-123456"}
    assert oauth(svc, **grant).status == 200
    assert svc.request("POST", f"/users/{made['id']}/block", token="root-token").status == 201
    response = oauth(svc, **grant)
    assert (response.status, response.json()) == (400, INVALID_GRANT)
    assert svc.request("POST", f"/users/{made['id']}/unblock", token="root-token").status == 201
    assert oauth(svc, **grant).status == 200
