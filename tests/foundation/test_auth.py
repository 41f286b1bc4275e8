"""Authentication and authorization (seed 000 §5; FIDELITY "Authentication"): every way to
present credentials, token lookup order, expiry and revocation, scopes, sudo, blocked
users, and visibility (404 rather than 403, internal hidden from anonymous and external)."""

from __future__ import annotations

from typing import Any

import pytest

from fakeservice import FakeService

from .helpers import bearer

UNAUTHORIZED = {"message": "401 Unauthorized"}
SCOPE_TEXT = "The request requires higher privileges than provided by the access token."
OAUTH_EXPIRED = "Token is expired. You can either do re-authorization or token refresh."
OAUTH_REVOKED = "Token was revoked. You have to re-authorize from the user."


def insufficient(scope: str) -> dict[str, str]:
    return {"error": "insufficient_scope", "error_description": SCOPE_TEXT, "scope": scope}


def challenge(description: str) -> str:
    return (
        'Bearer realm="Protected by OAuth 2.0", error="invalid_token", '
        f'error_description="{description}"'
    )


# (query suffix, headers) for each way alice can present credentials
ALICE_METHODS: dict[str, tuple[str, dict[str, str]]] = {
    "PRIVATE-TOKEN header": ("", {"PRIVATE-TOKEN": "alice-token"}),
    "private_token query": ("?private_token=alice-token", {}),
    "Bearer personal token": ("", bearer("alice-token")),
    "Bearer OAuth token": ("", bearer("alice-oauth")),
    "access_token query": ("?access_token=alice-oauth", {}),
    "impersonation token": ("", {"PRIVATE-TOKEN": "alice-imp"}),
    "Bearer impersonation token": ("", bearer("alice-imp")),
    "session cookie": ("", {"Cookie": "other=1; _service_session=alice-session"}),
}


def _send(svc: FakeService, method: str, path: str, how: str, **kw: Any) -> Any:
    suffix, headers = ALICE_METHODS[how]
    joiner = "&" if "?" in path and suffix else ""
    full = path + (suffix.replace("?", "&") if joiner else suffix)
    return svc.request(method, full, headers=headers, **kw)


@pytest.mark.parametrize("how", list(ALICE_METHODS))
def test_every_method_identifies_the_user(auth_svc: FakeService, how: str) -> None:
    response = _send(auth_svc, "GET", "/user", how)
    assert response.status == 200
    assert response.json()["username"] == "alice"


@pytest.mark.parametrize("how", [h for h in ALICE_METHODS if h != "session cookie"])
def test_every_token_method_may_write(auth_svc: FakeService, how: str) -> None:
    response = _send(auth_svc, "POST", "/projects", how, json_body={"name": "made"})
    assert response.status == 201
    assert response.json()["path_with_namespace"] == "alice/made"
    assert response.json()["creator_id"] == 2


def test_the_session_cookie_works_for_get_and_head_only(auth_svc: FakeService) -> None:
    cookie = {"Cookie": "_service_session=alice-session"}
    assert auth_svc.request("HEAD", "/user", headers=cookie).status == 200
    star = auth_svc.request("POST", "/projects/g%2Fpub/star", headers=cookie)
    assert (star.status, star.json()) == (401, UNAUTHORIZED)
    created = auth_svc.request("POST", "/projects", json_body={"name": "x"}, headers=cookie)
    assert (created.status, created.json()) == (401, UNAUTHORIZED)
    status = auth_svc.request("PUT", "/user/status", json_body={"message": "m"}, headers=cookie)
    assert status.status == 401
    assert auth_svc.request("GET", "/projects/g%2Fpub").json()["star_count"] == 0
    assert auth_svc.request("GET", "/users/2/status").json()["message"] is None


def test_an_unknown_session_cookie_is_anonymous(auth_svc: FakeService) -> None:
    cookie = {"Cookie": "_service_session=forged"}
    assert auth_svc.request("GET", "/projects", headers=cookie).status == 200
    assert auth_svc.request("GET", "/user", headers=cookie).json() == UNAUTHORIZED


def test_a_project_access_token_acts_as_the_project_bot(auth_svc: FakeService) -> None:
    me = auth_svc.request("GET", "/user", token="project-token").json()
    assert me["username"].startswith("project_")
    assert me["bot"] is True
    assert auth_svc.request("GET", "/projects/g%2Fpriv", token="project-token").status == 200
    other = auth_svc.request("GET", "/projects/g%2Fother", token="project-token")
    assert other.status == 404
    edit = auth_svc.request(
        "PUT", "/projects/g%2Fpriv", json_body={"description": "bot"}, token="project-token"
    )
    assert (edit.status, edit.json()["description"]) == (200, "bot")


@pytest.mark.parametrize(
    ("suffix", "headers"),
    [
        ("", {"PRIVATE-TOKEN": "nope"}),
        ("?private_token=nope", {}),
        ("", bearer("nope")),
        ("?access_token=nope", {}),
        ("?private_token=alice-oauth", {}),
        ("", {"PRIVATE-TOKEN": "alice-oauth"}),
    ],
)
def test_an_unknown_token_is_401_even_on_public_endpoints(
    auth_svc: FakeService, suffix: str, headers: dict[str, str]
) -> None:
    for path in ("/projects", "/projects/g%2Fpub", "/users/2/status"):
        response = auth_svc.request("GET", path + suffix, headers=headers)
        assert response.status == 401
        assert response.json() == UNAUTHORIZED


def test_public_endpoints_answer_anonymous_callers(auth_svc: FakeService) -> None:
    assert auth_svc.request("GET", "/projects/g%2Fpub").status == 200
    assert auth_svc.request("GET", "/user").json() == UNAUTHORIZED
    assert auth_svc.request("GET", "/version").status == 401


def test_bearer_is_read_before_the_private_token_header(auth_svc: FakeService) -> None:
    wrong_bearer = auth_svc.request(
        "GET", "/user", headers={**bearer("nope"), "PRIVATE-TOKEN": "root-token"}
    )
    assert wrong_bearer.status == 401
    both = auth_svc.request(
        "GET", "/user", headers={**bearer("alice-token"), "PRIVATE-TOKEN": "root-token"}
    )
    assert both.json()["username"] == "alice"


def test_the_private_token_query_is_read_before_the_header(auth_svc: FakeService) -> None:
    response = auth_svc.request(
        "GET", "/user?private_token=alice-token", headers={"PRIVATE-TOKEN": "root-token"}
    )
    assert response.json()["username"] == "alice"


def test_a_token_outranks_the_session_cookie(auth_svc: FakeService) -> None:
    response = auth_svc.request(
        "GET", "/user", headers={"Cookie": "_service_session=root-session"}, token="alice-token"
    )
    assert response.json()["username"] == "alice"


# -- expiry and revocation ------------------------------------------------------------------------------


def test_an_expired_oauth_token(auth_svc: FakeService) -> None:
    assert auth_svc.request("GET", "/user", headers=bearer("root-oauth-short")).status == 200
    auth_svc.clock.advance(seconds=60)
    for headers, suffix in (
        (bearer("root-oauth-short"), ""),
        ({}, "?access_token=root-oauth-short"),
    ):
        response = auth_svc.request("GET", "/projects" + suffix, headers=headers)
        assert response.status == 401
        assert response.json() == {"error": "invalid_token", "error_description": OAUTH_EXPIRED}
        assert response.header("WWW-Authenticate") == challenge(OAUTH_EXPIRED)


def test_a_revoked_oauth_token(auth_svc: FakeService) -> None:
    response = auth_svc.request("GET", "/projects", headers=bearer("root-oauth-revoked"))
    assert response.status == 401
    assert response.json() == {"error": "invalid_token", "error_description": OAUTH_REVOKED}
    assert response.header("WWW-Authenticate") == challenge(OAUTH_REVOKED)


def test_an_expired_personal_token(auth_svc: FakeService) -> None:
    response = auth_svc.request("GET", "/projects", token="alice-expired")
    assert response.status == 401
    assert response.json() == {"error": "invalid_token", "error_description": "Token has expired."}
    assert response.header("WWW-Authenticate") == challenge("Token has expired.")


def test_a_personal_token_expires_on_its_date(auth_svc: FakeService) -> None:
    assert auth_svc.request("GET", "/user", token="alice-expires-soon").status == 200
    auth_svc.clock.advance(hours=14, minutes=59)
    assert auth_svc.request("GET", "/user", token="alice-expires-soon").status == 200
    auth_svc.clock.advance(minutes=1)
    response = auth_svc.request("GET", "/user", token="alice-expires-soon")
    assert response.status == 401
    assert response.json()["error_description"] == "Token has expired."


def test_a_revoked_personal_token(auth_svc: FakeService) -> None:
    response = auth_svc.request("GET", "/projects", headers=bearer("alice-revoked"))
    assert response.status == 401
    assert response.json() == {
        "error": "invalid_token",
        "error_description": "Token has been revoked.",
    }


# -- scopes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "method", "path", "status", "scope"),
    [
        ("bob-read-token", "GET", "/projects", 200, None),
        ("bob-read-token", "HEAD", "/projects", 200, None),
        ("bob-read-token", "GET", "/user", 200, None),
        ("bob-read-token", "POST", "/projects", 403, "api"),
        ("bob-read-token", "PUT", "/user/status", 403, "api"),
        ("bob-read-token", "DELETE", "/personal_access_tokens/self", 403, "api"),
        ("alice-read-user", "GET", "/user", 200, None),
        ("alice-read-user", "GET", "/users", 200, None),
        ("alice-read-user", "GET", "/users/1", 200, None),
        ("alice-read-user", "GET", "/user/status", 200, None),
        ("alice-read-user", "GET", "/version", 200, None),
        ("alice-read-user", "GET", "/projects", 403, "api read_api"),
        ("alice-read-user", "GET", "/projects/g%2Fpub", 403, "api read_api"),
        ("alice-read-user", "PUT", "/user/status", 403, "api"),
        ("alice-read-repo", "GET", "/projects", 403, "api read_api"),
        ("alice-read-repo", "GET", "/users", 403, "api read_api read_user"),
        ("alice-token", "PUT", "/user/status", 200, None),
    ],
)
def test_scopes(
    auth_svc: FakeService, token: str, method: str, path: str, status: int, scope: str | None
) -> None:
    body = {"name": "scoped"} if method == "POST" else None
    response = auth_svc.request(method, path, token=token, json_body=body)
    assert response.status == status
    if scope is not None:
        assert response.json() == insufficient(scope)
        assert (
            auth_svc.request("GET", "/projects?per_page=100", token="root-token").header("X-Total")
            == "5"
        )


def test_scopes_apply_to_oauth_tokens(auth_svc: FakeService) -> None:
    auth_svc.load_scenario(
        {
            "users": [
                {"username": "ro", "oauth_tokens": [{"token": "ro-oauth", "scopes": ["read_api"]}]}
            ]
        }
    )
    assert auth_svc.request("GET", "/user", headers=bearer("ro-oauth")).status == 200
    response = auth_svc.request("PUT", "/user/status", headers=bearer("ro-oauth"), json_body={})
    assert response.json() == insufficient("api")


# -- sudo -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suffix", "headers"),
    [
        ("", {"Sudo": "alice"}),
        ("", {"Sudo": "ALICE"}),
        ("", {"Sudo": "2"}),
        ("?sudo=alice", {}),
        ("?sudo=Alice", {}),
        ("?sudo=2", {}),
    ],
)
def test_sudo_by_id_or_username(
    auth_svc: FakeService, suffix: str, headers: dict[str, str]
) -> None:
    response = auth_svc.request("GET", "/user" + suffix, headers=headers, token="root-token")
    assert response.status == 200
    me = response.json()
    assert (me["username"], "is_admin" in me) == ("alice", False)


def test_sudo_username_is_case_insensitive(auth_svc: FakeService) -> None:
    for name in ("bob", "BOB", "Bob"):
        response = auth_svc.request("GET", f"/user?sudo={name}", token="root-token")
        assert response.json()["username"] == "Bob"


def test_sudo_through_oauth_and_bearer(auth_svc: FakeService) -> None:
    response = auth_svc.request("GET", "/user", headers={**bearer("root-oauth"), "Sudo": "alice"})
    assert response.json()["username"] == "alice"
    response = auth_svc.request("GET", "/user", headers={**bearer("root-token"), "Sudo": "alice"})
    assert response.json()["username"] == "alice"


def test_sudo_runs_with_the_impersonated_users_permissions(auth_svc: FakeService) -> None:
    assert auth_svc.request("GET", "/projects/g%2Fother", token="root-token").status == 200
    as_bob = auth_svc.request("GET", "/projects/g%2Fother?sudo=bob", token="root-token")
    assert as_bob.status == 404
    as_alice = auth_svc.request("GET", "/projects/g%2Fother?sudo=alice", token="root-token")
    assert as_alice.status == 200
    created = auth_svc.request(
        "POST",
        "/projects",
        json_body={"name": "sudone"},
        headers={"Sudo": "alice"},
        token="root-token",
    )
    assert created.json()["path_with_namespace"] == "alice/sudone"
    assert created.json()["creator_id"] == 2


@pytest.mark.parametrize(
    ("kw", "status", "body"),
    [
        (
            {"token": "alice-token"},
            403,
            {"message": "403 Forbidden - Must be admin to use sudo"},
        ),
        (
            {"headers": {"Cookie": "_service_session=root-session"}},
            403,
            {
                "message": "403 Forbidden - Must be authenticated using an OAuth or personal "
                "access token to use sudo"
            },
        ),
        ({"token": "root-nosudo"}, 403, insufficient("sudo")),
        ({"headers": bearer("root-oauth-short")}, 403, insufficient("sudo")),
        ({}, 401, UNAUTHORIZED),
    ],
)
def test_sudo_failures(auth_svc: FakeService, kw: dict[str, Any], status: int, body: Any) -> None:
    response = auth_svc.request("GET", "/user?sudo=Bob", **kw)
    assert response.status == status
    assert response.json() == body


@pytest.mark.parametrize("who", ["ghost", "999", "GhOsT"])
def test_sudo_as_an_unknown_user(auth_svc: FakeService, who: str) -> None:
    for kw in ({"headers": {"Sudo": who}}, {"query": {"sudo": who}}):
        response = auth_svc.request("GET", "/projects", token="root-token", **kw)
        assert response.status == 404
        assert response.json() == {"message": f"404 User with ID or username '{who}' Not Found"}


def test_sudo_needs_the_write_scope_for_writes(auth_svc: FakeService) -> None:
    read = auth_svc.request("GET", "/user?sudo=alice", token="root-read-sudo")
    assert read.json()["username"] == "alice"
    write = auth_svc.request(
        "POST", "/projects?sudo=alice", json_body={"name": "n"}, token="root-read-sudo"
    )
    assert write.json() == insufficient("api")


# -- blocked users ---------------------------------------------------------------------------------------

BLOCKED = {"message": "403 Forbidden - Your account has been blocked."}


@pytest.mark.parametrize(
    "kw", [{"token": "dave-token"}, {"headers": {"Cookie": "_service_session=dave-session"}}]
)
def test_a_blocked_user_is_refused_everywhere(auth_svc: FakeService, kw: dict[str, Any]) -> None:
    for path in ("/user", "/projects", "/projects/g%2Fpub"):
        response = auth_svc.request("GET", path, **kw)
        assert response.status == 403
        assert response.json() == BLOCKED


def test_blocking_takes_effect_on_the_next_request(auth_svc: FakeService) -> None:
    assert auth_svc.request("POST", "/users/2/block", token="root-token").status == 201
    assert auth_svc.request("GET", "/user", token="alice-token").json() == BLOCKED
    assert auth_svc.request("POST", "/users/2/unblock", token="root-token").status == 201
    assert auth_svc.request("GET", "/user", token="alice-token").status == 200


# -- who may see what --------------------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "bob-read-token", "carol-token"])
def test_a_private_project_is_404_for_non_members(auth_svc: FakeService, token: str | None) -> None:
    response = auth_svc.request("GET", "/projects/g%2Fother", token=token)
    assert response.status == 404
    assert response.json() == {"message": "404 Project Not Found"}
    assert auth_svc.request("GET", "/projects/g%2Fother", token="root-token").status == 200


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("PUT", "/projects/g%2Fother"),
        ("DELETE", "/projects/g%2Fother"),
        ("POST", "/projects/g%2Fother/archive"),
        ("POST", "/projects/g%2Fother/star"),
    ],
)
def test_writes_to_a_hidden_project_are_404_not_403(
    auth_svc: FakeService, method: str, path: str
) -> None:
    body = {"description": "x"} if method == "PUT" else None
    response = auth_svc.request(method, path, token="carol-token", json_body=body)
    assert response.status == 404
    assert response.json() == {"message": "404 Project Not Found"}
    after = auth_svc.request("GET", "/projects/g%2Fother", token="root-token").json()
    assert (after["description"], after["archived"], after["star_count"]) == (None, False, 0)


@pytest.mark.parametrize(
    ("token", "visible"),
    [
        (None, ["g/pub"]),
        ("carol-token", ["g/pub", "g/int-carol"]),
        ("bob-read-token", ["g/pub", "g/int", "g/int-carol"]),
        ("alice-token", ["g/pub", "g/int", "g/int-carol", "g/priv", "g/other"]),
        ("root-token", ["g/pub", "g/int", "g/int-carol", "g/priv", "g/other"]),
    ],
)
def test_visibility_by_caller(auth_svc: FakeService, token: str | None, visible: list[str]) -> None:
    listed = auth_svc.request("GET", "/projects?order_by=id&sort=asc", token=token)
    assert [p["path_with_namespace"] for p in listed.json()] == visible
    for path in ("g/pub", "g/int", "g/int-carol", "g/priv", "g/other"):
        single = auth_svc.request("GET", "/projects/" + path.replace("/", "%2F"), token=token)
        assert single.status == (200 if path in visible else 404), path


def test_required_and_admin_rules(auth_svc: FakeService) -> None:
    assert auth_svc.request("GET", "/user").status == 401
    assert auth_svc.request("POST", "/projects", json_body={"name": "x"}).json() == UNAUTHORIZED
    anonymous_admin = auth_svc.request("POST", "/users/2/block")
    assert (anonymous_admin.status, anonymous_admin.json()) == (401, UNAUTHORIZED)
    non_admin = auth_svc.request("POST", "/users/3/block", token="alice-token")
    assert (non_admin.status, non_admin.json()) == (403, {"message": "403 Forbidden"})
    assert auth_svc.request("GET", "/users/3", token="root-token").json()["state"] == "active"
