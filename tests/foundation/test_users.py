"""Users (seed 001 §2.8, §4.8, §7): every list filter, administrator-only extras, the four
views, create with its password rules and conflicts, modify (404 on any failure), delete,
identities, block/unblock and statuses on the service clock."""

from __future__ import annotations

from typing import Any

import pytest

from fakeservice import FakeService

from .helpers import BASE

USERS_SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {
            "username": "root",
            "name": "Administrator",
            "admin": True,
            "tokens": [{"token": "root-token", "scopes": ["api", "sudo"]}],
            "created_at": "2025-01-01T00:00:00Z",
        },
        {
            "username": "alice",
            "name": "Alice Liddell",
            "email": "alice@example.com",
            "password": "alice-password-1",
            "tokens": [{"token": "alice-token"}],
            "created_at": "2025-02-01T00:00:00Z",
            "two_factor_enabled": True,
            "identities": [
                {"provider": "github", "extern_uid": "gh-1"},
                {"provider": "saml", "extern_uid": "s-1", "saml_provider_id": 7},
            ],
            "custom_attributes": {"team": "red"},
        },
        {
            "username": "bob",
            "name": "Bob Builder",
            "created_at": "2025-03-01T00:00:00Z",
            "identities": [{"provider": "github", "extern_uid": "gh-2"}],
            "custom_attributes": {"team": "blue"},
        },
        {
            "username": "carol",
            "name": "Carol Contractor",
            "external": True,
            "created_at": "2025-04-01T00:00:00Z",
        },
        {
            "username": "dave",
            "name": "Dave",
            "state": "blocked",
            "created_at": "2025-05-01T00:00:00Z",
        },
        {
            "username": "alert-bot",
            "name": "Alert Bot",
            "user_type": "alert_bot",
            "created_at": "2025-06-01T00:00:00Z",
        },
        {
            "username": "erin",
            "name": "Erin Admin",
            "admin": True,
            "private_profile": True,
            "bio": "secret bio",
            "created_at": "2025-07-01T00:00:00Z",
        },
    ],
    "groups": [{"path": "grp", "members": [{"user": "alice", "role": "owner"}]}],
    "projects": [{"path": "grp/proj", "members": [{"user": "bob", "role": "reporter"}]}],
}
IDS = {"root": 1, "alice": 2, "bob": 3, "carol": 4, "dave": 5, "alert-bot": 6, "erin": 7}


@pytest.fixture
def users_svc(make_service: Any) -> FakeService:
    return make_service(USERS_SCENARIO)


def usernames(service: FakeService, query: str, token: str | None = "root-token") -> list[str]:
    response = service.request("GET", f"/users?{query}", token=token)
    assert response.status == 200, response.body
    return [u["username"] for u in response.json()]


# -- list filters ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ["erin", "alert-bot", "dave", "carol", "bob", "alice", "root"]),
        ("username=alice", ["alice"]),
        ("username=ALICE", ["alice"]),
        ("username=nobody", []),
        ("search=lidd", ["alice"]),
        ("search=BUILD", ["bob"]),
        ("search=ar", ["carol"]),
        ("search=alice@example.com", ["alice"]),
        ("search=ALICE@EXAMPLE.COM", ["alice"]),
        ("search=alice@exam", []),
        ("active=true", ["erin", "alert-bot", "carol", "bob", "alice", "root"]),
        ("blocked=true", ["dave"]),
        ("external=true", ["carol"]),
        ("exclude_external=true", ["erin", "alert-bot", "dave", "bob", "alice", "root"]),
        ("exclude_internal=true", ["erin", "dave", "carol", "bob", "alice", "root"]),
        ("extern_uid=gh-2&provider=github", ["bob"]),
        ("extern_uid=gh-2&provider=saml", []),
        ("created_before=2025-03-01T00:00:00Z", ["bob", "alice", "root"]),
        ("created_after=2025-05-01T00:00:00Z", ["erin", "alert-bot", "dave"]),
        ("created_after=2025-02-15&created_before=2025-04-15", ["carol", "bob"]),
        ("without_projects=true", ["erin", "alert-bot", "dave", "carol", "root"]),
        ("custom_attributes[team]=red", ["alice"]),
        ("active=true&external=true", ["carol"]),
        ("blocked=true&search=dave", ["dave"]),
        ("active=false", ["erin", "alert-bot", "dave", "carol", "bob", "alice", "root"]),
    ],
)
def test_list_filters(users_svc: FakeService, query: str, expected: list[str]) -> None:
    assert usernames(users_svc, query) == expected


def test_secondary_emails_are_searched(users_svc: FakeService) -> None:
    store = users_svc.store
    store.tables["users"].rows[IDS["bob"]].secondary_emails.append("builder@example.org")
    assert usernames(users_svc, "search=builder@example.org") == ["bob"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("order_by=name&sort=asc", ["root", "alert-bot", "alice", "bob", "carol", "dave", "erin"]),
        (
            "order_by=username&sort=desc",
            ["root", "erin", "dave", "carol", "bob", "alice", "alert-bot"],
        ),
        ("sort=asc", ["root", "alice", "bob", "carol", "dave", "alert-bot", "erin"]),
        (
            "order_by=created_at&sort=asc",
            ["root", "alice", "bob", "carol", "dave", "alert-bot", "erin"],
        ),
        ("two_factor=enabled", ["alice"]),
        ("two_factor=disabled", ["erin", "alert-bot", "dave", "carol", "bob", "root"]),
        ("admins=true", ["erin", "root"]),
        ("saml_provider_id=7", ["alice"]),
        (
            "order_by=name&sort=asc&search=a",
            ["root", "alert-bot", "alice", "carol", "dave", "erin"],
        ),
    ],
)
def test_administrator_extras(users_svc: FakeService, query: str, expected: list[str]) -> None:
    assert usernames(users_svc, query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "order_by=name&sort=asc",
        "sort=asc",
        "two_factor=enabled",
        "admins=true",
        "saml_provider_id=7",
        "custom_attributes[team]=red",
    ],
)
def test_administrator_extras_are_ignored_for_others(users_svc: FakeService, query: str) -> None:
    everyone = ["erin", "alert-bot", "dave", "carol", "bob", "alice", "root"]
    assert usernames(users_svc, query, token="alice-token") == everyone
    anonymous = users_svc.request("GET", f"/users?{query}")
    assert anonymous.json() == {"message": "403 Forbidden - Not authorized to access /api/v4/users"}


def test_administrator_extras_are_still_validated(users_svc: FakeService) -> None:
    response = users_svc.request("GET", "/users?order_by=email", token="alice-token")
    assert response.json() == {"error": "order_by does not have a valid value"}
    response = users_svc.request("GET", "/users?two_factor=maybe", token="alice-token")
    assert response.json() == {"error": "two_factor does not have a valid value"}


def test_extern_uid_lookup_is_for_administrators(users_svc: FakeService) -> None:
    query = "/users?extern_uid=gh-2&provider=github"
    non_admin = users_svc.request("GET", query, token="alice-token")
    assert (non_admin.status, non_admin.json()) == (403, {"message": "403 Forbidden"})
    anonymous = users_svc.request("GET", query)
    assert (anonymous.status, anonymous.json()) == (401, {"message": "401 Unauthorized"})


def test_with_custom_attributes(users_svc: FakeService) -> None:
    admin = users_svc.request(
        "GET", "/users?username=alice&with_custom_attributes=true", token="root-token"
    )
    assert admin.json()[0]["custom_attributes"] == [{"key": "team", "value": "red"}]
    single = users_svc.request("GET", "/users/2?with_custom_attributes=true", token="root-token")
    assert single.json()["custom_attributes"] == [{"key": "team", "value": "red"}]
    other = users_svc.request(
        "GET", "/users?username=alice&with_custom_attributes=true", token="alice-token"
    )
    assert "custom_attributes" not in other.json()[0]
    plain = users_svc.request("GET", "/users?username=alice", token="root-token")
    assert "custom_attributes" not in plain.json()[0]


def test_deleted_users_are_not_listed(users_svc: FakeService) -> None:
    assert users_svc.request("DELETE", "/users/4", token="root-token").status == 204
    assert "carol" not in usernames(users_svc, "")
    assert usernames(users_svc, "external=true") == []


# -- views -------------------------------------------------------------------------------------------------

NORMAL = {"id", "username", "name", "state", "locked", "avatar_url", "web_url"}
SINGLE = NORMAL | {
    "created_at", "bio", "bot", "location", "public_email", "skype", "linkedin", "twitter",
    "website_url", "organization", "job_title", "followers", "following",
}  # fmt: skip
OWN = {
    "email", "last_sign_in_at", "confirmed_at", "theme_id", "last_activity_on", "color_scheme_id",
    "projects_limit", "current_sign_in_at", "identities", "can_create_group",
    "can_create_project", "two_factor_enabled", "external", "private_profile", "commit_email",
}  # fmt: skip
ADMIN_ONLY = {
    "is_admin", "note", "current_sign_in_ip", "last_sign_in_ip", "plan", "trial",
    "sign_in_count", "shared_runners_minutes_limit", "extra_shared_runners_minutes_limit",
    "is_auditor", "using_license_seat", "provisioned_by_group_id",
}  # fmt: skip


def test_normal_view_in_lists(users_svc: FakeService) -> None:
    for token in (None, "alice-token"):
        first = users_svc.request("GET", "/users?username=bob", token=token).json()[0]
        assert set(first) == NORMAL
        assert first == {
            "id": 3,
            "username": "bob",
            "name": "Bob Builder",
            "state": "active",
            "locked": False,
            "avatar_url": None,
            "web_url": f"{BASE}/bob",
        }


def test_single_view(users_svc: FakeService) -> None:
    body = users_svc.request("GET", "/users/3", token="alice-token").json()
    assert set(body) >= SINGLE
    assert not (OWN | ADMIN_ONLY) & set(body)
    assert (body["created_at"], body["bot"], body["bio"]) == ("2025-03-01T00:00:00Z", False, "")
    assert users_svc.request("GET", "/users/3").json() == body


def test_single_view_of_a_bot(users_svc: FakeService) -> None:
    assert users_svc.request("GET", "/users/6").json()["bot"] is True


def test_a_private_profile_hides_profile_fields(users_svc: FakeService) -> None:
    hidden = users_svc.request("GET", "/users/7", token="alice-token").json()
    assert hidden["bio"] == ""
    shown = users_svc.request("GET", "/users/7", token="root-token").json()
    assert shown["bio"] == "secret bio"


def test_administrator_view(users_svc: FakeService) -> None:
    for response in (
        users_svc.request("GET", "/users/2", token="root-token"),
        users_svc.request("GET", "/users?username=alice", token="root-token"),
    ):
        body = response.json()
        body = body[0] if isinstance(body, list) else body
        assert set(body) >= SINGLE | OWN | ADMIN_ONLY
        assert (body["email"], body["is_admin"], body["two_factor_enabled"]) == (
            "alice@example.com",
            False,
            True,
        )
        assert body["identities"] == [
            {"provider": "github", "extern_uid": "gh-1", "saml_provider_id": None},
            {"provider": "saml", "extern_uid": "s-1", "saml_provider_id": 7},
        ]


def test_current_user_view(users_svc: FakeService) -> None:
    own = users_svc.request("GET", "/user", token="alice-token").json()
    assert set(own) >= SINGLE | OWN
    assert not ADMIN_ONLY & set(own)
    assert (own["username"], own["email"]) == ("alice", "alice@example.com")
    admin = users_svc.request("GET", "/user", token="root-token").json()
    assert set(admin) >= SINGLE | OWN | ADMIN_ONLY
    assert admin["is_admin"] is True


def test_missing_user(users_svc: FakeService) -> None:
    for path in ("/users/999", "/users/999/status", "/users/nobody/status"):
        response = users_svc.request("GET", path, token="root-token")
        assert (response.status, response.json()) == (404, {"message": "404 User Not Found"})


# -- create --------------------------------------------------------------------------------------------------

NEW = {"email": "zed@example.com", "name": "Zed", "username": "zed"}


def create(service: FakeService, token: str | None = "root-token", **fields: Any) -> Any:
    return service.request("POST", "/users", json_body={**NEW, **fields}, token=token)


def test_create(users_svc: FakeService) -> None:
    response = create(
        users_svc,
        password="long-enough-1",
        bio="hello",
        admin=True,
        external=True,
        projects_limit=5,
        provider="github",
        extern_uid="gh-9",
        note="made by a test",
    )
    assert response.status == 201
    body = response.json()
    assert set(body) >= SINGLE | OWN | ADMIN_ONLY
    expected = {
        "username": "zed",
        "email": "zed@example.com",
        "name": "Zed",
        "bio": "hello",
        "is_admin": True,
        "external": True,
        "projects_limit": 5,
        "note": "made by a test",
        "state": "active",
        "private_profile": False,
        "web_url": f"{BASE}/zed",
        "created_at": "2026-01-01T09:00:00Z",
    }
    assert {k: body[k] for k in expected} == expected
    assert body["identities"] == [
        {"provider": "github", "extern_uid": "gh-9", "saml_provider_id": None}
    ]
    fetched = users_svc.request("GET", f"/users/{body['id']}", token="root-token").json()
    assert fetched == body
    assert usernames(users_svc, "extern_uid=gh-9&provider=github") == ["zed"]


def test_create_defaults(users_svc: FakeService) -> None:
    body = create(users_svc, password="long-enough-1", private_profile=None).json()
    assert (body["bio"], body["private_profile"], body["is_admin"]) == ("", False, False)


@pytest.mark.parametrize(
    "fields",
    [
        {"reset_password": True},
        {"force_random_password": True},
        {"reset_password": True, "force_random_password": True},
        {"password": "x", "reset_password": True},
        {"password": "short", "force_random_password": True},
    ],
)
def test_password_alternatives(users_svc: FakeService, fields: dict[str, Any]) -> None:
    assert create(users_svc, **fields).status == 201


def test_one_password_option_is_required(users_svc: FakeService) -> None:
    response = create(users_svc)
    assert response.status == 400
    assert response.json() == {
        "error": "password, reset_password, force_random_password are missing, at least one "
        "parameter must be provided"
    }


def test_password_is_required_when_the_others_are_false(users_svc: FakeService) -> None:
    response = create(users_svc, reset_password=False, force_random_password=False)
    assert response.status == 400
    assert response.json() == {"message": {"password": ["can't be blank"]}}
    assert usernames(users_svc, "username=zed") == []


def test_a_short_password(users_svc: FakeService) -> None:
    response = create(users_svc, password="1234567")
    assert response.status == 400
    assert response.json() == {"message": {"password": ["is too short (minimum is 8 characters)"]}}
    assert create(users_svc, password="12345678").status == 201


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"username": "ALICE"}, "Username has already been taken"),
        ({"username": "alice"}, "Username has already been taken"),
        ({"email": "Alice@Example.com"}, "Email has already been taken"),
    ],
)
def test_create_conflicts(users_svc: FakeService, fields: dict[str, Any], message: str) -> None:
    response = create(users_svc, password="long-enough-1", **fields)
    assert response.status == 409
    assert response.json() == {"message": message}
    assert users_svc.request("GET", "/users", token="root-token").header("X-Total") == "7"


def test_a_username_may_not_take_a_group_path(users_svc: FakeService) -> None:
    response = create(users_svc, password="long-enough-1", username="GRP")
    assert response.status in (400, 409)
    assert usernames(users_svc, "username=grp") == []
    assert users_svc.request("GET", "/projects/grp%2Fproj", token="root-token").status == 200


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        (
            {"username": "-bad"},
            {
                "username": [
                    "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' "
                    "or end in '.', '.git' or '.atom'."
                ]
            },
        ),
        (
            {"username": None},
            {
                "username": [
                    "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' "
                    "or end in '.', '.git' or '.atom'."
                ]
            },
        ),
        ({"email": "not-an-email"}, {"email": ["is invalid"]}),
        ({"email": None}, {"email": ["is invalid"]}),
        ({"name": " "}, {"name": ["can't be blank"]}),
        ({"name": None}, {"name": ["can't be blank"]}),
        ({"projects_limit": -1}, {"projects_limit": ["must be greater than or equal to 0"]}),
    ],
)
def test_create_validation(users_svc: FakeService, fields: dict[str, Any], errors: Any) -> None:
    response = create(users_svc, password="long-enough-1", **fields)
    assert response.status == 400
    assert response.json() == {"message": errors}


def test_create_needs_an_administrator(users_svc: FakeService) -> None:
    assert create(users_svc, token="alice-token", password="long-enough-1").json() == {
        "message": "403 Forbidden"
    }
    assert create(users_svc, token=None, password="long-enough-1").status == 401
    assert usernames(users_svc, "username=zed") == []


# -- modify ----------------------------------------------------------------------------------------------------


def modify(service: FakeService, user_id: int, token: str = "root-token", **fields: Any) -> Any:
    return service.request("PUT", f"/users/{user_id}", json_body=fields, token=token)


def test_modify(users_svc: FakeService) -> None:
    users_svc.clock.advance(hours=1)
    response = modify(users_svc, 3, name="Robert", bio="builds", location="Leeds", admin=True)
    assert response.status == 200
    body = response.json()
    assert (body["name"], body["bio"], body["location"], body["is_admin"]) == (
        "Robert", "builds", "Leeds", True
    )  # fmt: skip
    assert users_svc.request("GET", "/users/3", token="alice-token").json()["name"] == "Robert"
    assert usernames(users_svc, "admins=true") == ["erin", "bob", "root"]


def test_modify_username_moves_the_personal_namespace(svc: FakeService) -> None:
    response = modify(svc, 2, username="alice2", name="Alice L")
    assert response.json()["username"] == "alice2"
    moved = svc.request("GET", "/projects/alice2%2Fdotfiles", token="root-token")
    assert moved.status == 200
    assert moved.json()["path_with_namespace"] == "alice2/dotfiles"
    assert moved.json()["name_with_namespace"] == "Alice L / dotfiles"
    assert moved.json()["web_url"] == f"{BASE}/alice2/dotfiles"
    assert svc.request("GET", "/projects/alice%2Fdotfiles", token="root-token").status == 404
    assert svc.request("GET", "/users/alice2/projects").json()[0]["id"] == 4


def test_modify_password(users_svc: FakeService) -> None:
    assert modify(users_svc, 2, password="a-new-password").status == 200
    user = users_svc.store.tables["users"].rows[2]
    assert user.password_expired is True


def test_modify_identity(users_svc: FakeService) -> None:
    body = modify(users_svc, 2, provider="github", extern_uid="gh-100").json()
    assert body["identities"] == [
        {"provider": "saml", "extern_uid": "s-1", "saml_provider_id": 7},
        {"provider": "github", "extern_uid": "gh-100", "saml_provider_id": None},
    ]


def test_public_email_must_be_owned(users_svc: FakeService) -> None:
    assert modify(users_svc, 2, public_email="alice@example.com").json()["public_email"] == (
        "alice@example.com"
    )
    response = modify(users_svc, 2, public_email="someone@else.com")
    assert response.status == 404
    assert users_svc.request("GET", "/users/2").json()["public_email"] == "alice@example.com"


@pytest.mark.parametrize(
    "fields",
    [
        {"email": "bob@example.com"},
        {"email": "BOB@example.com", "bio": "changed"},
        {"username": "Bob"},
        {"username": "grp"},
        {"username": "no spaces"},
        {"email": "broken"},
        {"password": "short"},
        {"name": ""},
        {"username": None},
        {"email": None},
        {"name": None},
    ],
)
def test_any_modify_failure_is_404(users_svc: FakeService, fields: dict[str, Any]) -> None:
    users_svc.store.tables["users"].rows[3].email = "bob@example.com"
    users_svc.store.tables["users"].reindex(users_svc.store.tables["users"].rows[3])
    before = users_svc.request("GET", "/users/2", token="root-token").json()
    response = modify(users_svc, 2, **fields)
    assert response.status == 404
    assert users_svc.request("GET", "/users/2", token="root-token").json() == before


def test_modify_unknown_user(users_svc: FakeService) -> None:
    response = modify(users_svc, 999, bio="x")
    assert (response.status, response.json()) == (404, {"message": "404 User Not Found"})


def test_modify_needs_an_administrator(users_svc: FakeService) -> None:
    assert modify(users_svc, 2, token="alice-token", bio="self").status == 403
    assert users_svc.request("GET", "/users/2").json()["bio"] == ""


# -- delete ------------------------------------------------------------------------------------------------------


def test_delete(svc: FakeService) -> None:
    response = svc.request("DELETE", "/users/3", token="root-token")
    assert (response.status, response.body) == (204, b"")
    assert svc.request("GET", "/users/3", token="root-token").status == 404
    assert svc.request("GET", "/user", token="bob-read-token").status == 401
    again = svc.request("DELETE", "/users/3", token="root-token")
    assert (again.status, again.json()) == (404, {"message": "404 User Not Found"})


def test_delete_removes_personal_projects_and_memberships(svc: FakeService) -> None:
    made = svc.request(
        "POST", "/projects?sudo=dev003", json_body={"name": "mine"}, token="root-token"
    )
    assert made.json()["path_with_namespace"] == "dev003/mine"
    dev001 = svc.request("GET", "/users?username=dev001", token="root-token").json()[0]["id"]
    dev003 = svc.request("GET", "/users?username=dev003", token="root-token").json()[0]["id"]
    for user_id in (dev001, dev003):
        assert svc.request("DELETE", f"/users/{user_id}", token="root-token").status == 204
    assert svc.request("GET", "/projects/dev003%2Fmine", token="root-token").status == 404
    assert svc.request("GET", "/projects?search=mine", token="root-token").json() == []
    members = svc.store.tables["members"]
    assert [m for m in members if m.user_id in (dev001, dev003)] == []


def test_delete_the_sole_owner_of_a_group_is_409(svc: FakeService) -> None:
    response = svc.request("DELETE", "/users/2", token="root-token")
    assert response.status == 409
    assert response.json() == {
        "message": "User cannot be removed while is the sole-owner of a group"
    }
    assert svc.request("GET", "/users/2", token="root-token").status == 200
    assert svc.request("GET", "/user", token="alice-token").status == 200


def test_hard_delete_removes_solely_owned_groups(svc: FakeService) -> None:
    response = svc.request("DELETE", "/users/2?hard_delete=true", token="root-token")
    assert response.status == 204
    assert svc.request("GET", "/users/2", token="root-token").status == 404
    for path in ("acme%2Fwebsite", "acme%2Fplatform%2Fapi", "alice%2Fdotfiles"):
        assert svc.request("GET", f"/projects/{path}", token="root-token").status == 404
    assert svc.request("GET", "/projects/oss%2Flib-01", token="root-token").status == 200


def test_delete_needs_an_administrator(svc: FakeService) -> None:
    assert svc.request("DELETE", "/users/3", token="alice-token").status == 403
    assert svc.request("DELETE", "/users/3").status == 401
    assert svc.request("GET", "/users/3").status == 200


# -- identities -----------------------------------------------------------------------------------------------------


def test_delete_identity(users_svc: FakeService) -> None:
    response = users_svc.request("DELETE", "/users/2/identities/github", token="root-token")
    assert (response.status, response.body) == (204, b"")
    body = users_svc.request("GET", "/users/2", token="root-token").json()
    assert [i["provider"] for i in body["identities"]] == ["saml"]
    again = users_svc.request("DELETE", "/users/2/identities/github", token="root-token")
    assert (again.status, again.json()) == (404, {"message": "404 Identity Not Found"})
    missing_user = users_svc.request("DELETE", "/users/999/identities/github", token="root-token")
    assert missing_user.json() == {"message": "404 User Not Found"}
    forbidden = users_svc.request("DELETE", "/users/2/identities/saml", token="alice-token")
    assert forbidden.status == 403
    assert usernames(users_svc, "extern_uid=gh-1&provider=github") == []


# -- block and unblock ------------------------------------------------------------------------------------------------


def test_block_and_unblock(users_svc: FakeService) -> None:
    blocked = users_svc.request("POST", "/users/2/block", token="root-token")
    assert (blocked.status, blocked.json()) == (201, True)
    assert users_svc.request("GET", "/users/2").json()["state"] == "blocked"
    assert usernames(users_svc, "blocked=true") == ["dave", "alice"]
    assert users_svc.request("GET", "/user", token="alice-token").status == 403
    unblocked = users_svc.request("POST", "/users/2/unblock", token="root-token")
    assert (unblocked.status, unblocked.json()) == (201, True)
    assert users_svc.request("GET", "/users/2").json()["state"] == "active"
    assert users_svc.request("GET", "/user", token="alice-token").status == 200


def test_blocking_twice_and_unblocking_an_active_user(users_svc: FakeService) -> None:
    again = users_svc.request("POST", "/users/5/block", token="root-token")
    assert (again.status, again.body) == (201, b"null")
    unblocked = users_svc.request("POST", "/users/2/unblock", token="root-token")
    assert (unblocked.status, unblocked.body) == (201, b"false")
    assert users_svc.request("GET", "/users/5").json()["state"] == "blocked"


def test_block_errors(users_svc: FakeService) -> None:
    missing = users_svc.request("POST", "/users/999/block", token="root-token")
    assert (missing.status, missing.json()) == (404, {"message": "404 User Not Found"})
    internal = users_svc.request("POST", "/users/6/block", token="root-token")
    assert internal.json() == {"message": "403 Forbidden - An internal user cannot be blocked"}
    assert users_svc.request("POST", "/users/3/block", token="alice-token").status == 403
    assert users_svc.request("GET", "/users/3").json()["state"] == "active"


def test_a_deactivated_user_cannot_be_unblocked(users_svc: FakeService) -> None:
    assert users_svc.request("POST", "/users/3/deactivate", token="root-token").status == 201
    response = users_svc.request("POST", "/users/3/unblock", token="root-token")
    assert response.status == 403
    assert response.json() == {
        "message": "403 Forbidden - Deactivated users cannot be unblocked by the API"
    }


# -- statuses -------------------------------------------------------------------------------------------------------------

CLEARED = {
    "emoji": None,
    "availability": "not_set",
    "message": None,
    "message_html": "",
    "clear_status_at": None,
}


def test_status_with_clear_status_after(users_svc: FakeService) -> None:
    response = users_svc.request(
        "PUT",
        "/user/status",
        json_body={
            "emoji": "coffee",
            "message": "Back <soon> & later",
            "availability": "busy",
            "clear_status_after": "30_minutes",
        },
        token="alice-token",
    )
    expected = {
        "emoji": "coffee",
        "availability": "busy",
        "message": "Back <soon> & later",
        "message_html": "Back &lt;soon&gt; &amp; later",
        "clear_status_at": "2026-01-01T09:30:00Z",
    }
    assert (response.status, response.json()) == (200, expected)
    for path, token in (
        ("/users/alice/status", None),
        ("/users/ALICE/status", None),
        ("/users/2/status", None),
        ("/user/status", "alice-token"),
    ):
        assert users_svc.request("GET", path, token=token).json() == expected
    users_svc.clock.advance(minutes=29, seconds=59)
    assert users_svc.request("GET", "/users/2/status").json() == expected
    users_svc.clock.advance(seconds=1)
    assert users_svc.request("GET", "/users/2/status").json() == CLEARED
    assert users_svc.request("GET", "/user/status", token="alice-token").json() == CLEARED


@pytest.mark.parametrize(
    ("choice", "seconds"),
    [("3_hours", 3 * 3600), ("8_hours", 8 * 3600), ("1_day", 86400), ("7_days", 7 * 86400)],
)
def test_status_clear_choices(users_svc: FakeService, choice: str, seconds: int) -> None:
    users_svc.request(
        "PUT",
        "/user/status",
        json_body={"message": "m", "clear_status_after": choice},
        token="alice-token",
    )
    users_svc.clock.advance(seconds=seconds - 1)
    assert users_svc.request("GET", "/users/2/status").json()["message"] == "m"
    users_svc.clock.advance(seconds=1)
    assert users_svc.request("GET", "/users/2/status").json() == CLEARED


def test_status_without_expiry_stays(users_svc: FakeService) -> None:
    body = users_svc.request(
        "PUT", "/user/status", json_body={"message": "here"}, token="alice-token"
    ).json()
    assert (body["emoji"], body["clear_status_at"]) == ("speech_balloon", None)
    users_svc.clock.advance(days=365)
    assert users_svc.request("GET", "/users/2/status").json()["message"] == "here"


def test_setting_a_status_clears_omitted_fields(users_svc: FakeService) -> None:
    users_svc.request(
        "PUT", "/user/status", json_body={"emoji": "coffee", "message": "m"}, token="alice-token"
    )
    body = users_svc.request("PUT", "/user/status", json_body={}, token="alice-token").json()
    assert body == CLEARED


def test_status_errors(users_svc: FakeService) -> None:
    bad = users_svc.request(
        "PUT", "/user/status", json_body={"clear_status_after": "2_hours"}, token="alice-token"
    )
    assert bad.json() == {"error": "clear_status_after does not have a valid value"}
    availability = users_svc.request(
        "PUT", "/user/status", json_body={"availability": "away"}, token="alice-token"
    )
    assert availability.json() == {"error": "availability does not have a valid value"}
    assert users_svc.request("GET", "/user/status").status == 401
    assert users_svc.request("PUT", "/user/status", json_body={}).status == 401


def test_statuses_are_per_user(users_svc: FakeService) -> None:
    users_svc.request("PUT", "/user/status", json_body={"message": "alice"}, token="alice-token")
    users_svc.request(
        "PUT", "/user/status?sudo=bob", json_body={"message": "bob"}, token="root-token"
    )
    assert users_svc.request("GET", "/users/2/status").json()["message"] == "alice"
    assert users_svc.request("GET", "/users/bob/status").json()["message"] == "bob"
    assert users_svc.request("GET", "/users/carol/status").json() == CLEARED
