"""Project and group access tokens: a bot user per token (``project_<id>_bot_<hex>``) made a
member at the token's level, list/get/create/revoke/rotate, and the role rules
(maintainers for projects, owners for groups, no token above its creator's role)."""

from __future__ import annotations

import re
from typing import Any

import gitlab
import pytest
from support.calls import call

from fakeservice import FakeService
from fakeservice.users.models import find_by_username

FIELDS = {
    "id", "name", "revoked", "created_at", "description", "scopes", "user_id", "last_used_at",
    "active", "expires_at", "access_level", "resource_type", "resource_id",
}  # fmt: skip
WEBSITE = "/projects/acme%2Fwebsite"


def token_for(svc: FakeService, username: str) -> str:
    """A fresh api token for ``username`` (issued by the administrator)."""
    user = find_by_username(svc.store, username)
    assert user is not None
    response = call(
        svc,
        "POST",
        f"/users/{user.id}/personal_access_tokens",
        json_body={"name": "t", "scopes": ["api"]},
    )
    return str(response.json()["token"])


def create(svc: FakeService, path: str = WEBSITE, token: str = "alice-token", **body: Any) -> Any:
    payload = {"name": "ci bot", "scopes": ["api"], **body}
    return call(svc, "POST", f"{path}/access_tokens", token=token, json_body=payload)


def test_create_makes_a_bot_member_that_the_token_authenticates_as(svc: FakeService) -> None:
    response = create(svc, access_level=30, expires_at="2026-02-01", description="deploys")
    assert response.status == 201
    made = response.json()
    assert set(made) == FIELDS | {"token"}
    assert {k: made[k] for k in ("name", "scopes", "access_level", "expires_at", "active")} == {
        "name": "ci bot",
        "scopes": ["api"],
        "access_level": 30,
        "expires_at": "2026-02-01",
        "active": True,
    }
    assert (made["resource_type"], made["resource_id"]) == ("project", 1)
    me = call(svc, "GET", "/user", token=made["token"]).json()
    assert re.fullmatch(r"project_1_bot_[0-9a-f]{32}", me["username"])
    assert (me["id"], me["name"], me["bot"]) == (made["user_id"], "ci bot", True)
    member = call(svc, "GET", f"{WEBSITE}/members/{me['id']}").json()
    assert member["access_level"] == 30
    # a developer may push but not administer the project
    assert (
        call(svc, "PUT", WEBSITE, token=made["token"], json_body={"description": "x"}).status == 403
    )
    assert (
        call(svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault", token=made["token"]).status == 404
    )


def test_default_level_and_expiry_and_validation(svc: FakeService) -> None:
    made = create(svc).json()
    assert (made["access_level"], made["expires_at"]) == (40, "2027-01-01")
    before = svc.snapshot()
    for body, expected in (
        ({"name": ""}, {"error": "name is empty"}),
        ({"scopes": ["everything"]}, {"error": "scopes does not have a valid value"}),
        ({"access_level": 35}, {"error": "access_level does not have a valid value"}),
        ({"expires_at": "2025-01-01"}, {"message": {"expires_at": ["must be in the future"]}}),
    ):
        response = create(svc, **body)
        assert (response.status, response.json()) == (400, expected)
    assert svc.snapshot() == before


def test_role_rules(svc: FakeService) -> None:
    api_project = "/projects/acme%2Fplatform%2Fapi"
    maintainer = token_for(svc, "dev001")
    owner_token = create(svc, api_project, maintainer, access_level=50)
    assert (owner_token.status, owner_token.json()) == (
        400,
        {
            "message": "400 Bad request - Access level of the token can't be greater the "
            "access level of the user who created the token"
        },
    )
    assert create(svc, api_project, maintainer, access_level=40).status == 201
    reporter = create(svc, token="bob-read-token")
    assert reporter.status == 403  # read_api cannot write at all
    reporter = token_for(svc, "bob")
    refused = create(svc, token=reporter)
    assert (refused.status, refused.json()) == (
        400,
        {
            "message": "400 Bad request - User does not have permission to create project "
            "access token"
        },
    )
    listed = call(svc, "GET", f"{WEBSITE}/access_tokens", token=reporter)
    assert (listed.status, listed.json()) == (401, {"message": "401 Unauthorized"})
    # group tokens are for owners: a subgroup maintainer is refused
    group = create(svc, "/groups/acme%2Fplatform", maintainer)
    assert group.status == 400
    assert call(svc, "GET", "/groups/acme%2Fplatform/access_tokens", token=maintainer).status == 401
    assert create(svc, "/projects/999").status == 404


def test_list_get_revoke_rotate(svc: FakeService) -> None:
    first = create(svc, name="one").json()
    second = create(svc, name="two").json()
    base = f"{WEBSITE}/access_tokens"
    listed = call(svc, "GET", base, token="alice-token")
    assert [t["name"] for t in listed.json()] == ["one", "two"]
    assert "token" not in listed.json()[0]
    got = call(svc, "GET", f"{base}/{first['id']}", token="alice-token").json()
    assert got == {k: v for k, v in first.items() if k != "token"}
    missing = call(svc, "GET", f"{base}/999", token="alice-token")
    assert (missing.status, missing.json()) == (
        404,
        {"message": "404 Could not find project access token with token_id: 999"},
    )
    # a project's token is not found under another project
    other = call(
        svc, "GET", f"/projects/alice%2Fdotfiles/access_tokens/{first['id']}", token="alice-token"
    )
    assert other.status == 404

    rotated = call(svc, "POST", f"{base}/{first['id']}/rotate", token="alice-token")
    assert rotated.status == 200
    new = rotated.json()
    assert (new["user_id"], new["access_level"], new["expires_at"]) == (
        first["user_id"],
        40,
        "2026-01-08",
    )
    assert call(svc, "GET", "/user", token=first["token"]).status == 401
    assert call(svc, "GET", "/user", token=new["token"]).status == 200

    assert call(svc, "DELETE", f"{base}/{second['id']}", token="alice-token").status == 204
    assert call(svc, "GET", "/user", token=second["token"]).status == 401
    assert call(svc, "GET", f"{WEBSITE}/members/{second['user_id']}").status == 404
    states = call(svc, "GET", base, token="alice-token", query={"state": "active"}).json()
    assert [t["id"] for t in states] == [new["id"]]
    states = call(svc, "GET", base, token="alice-token", query={"state": "inactive"}).json()
    assert [t["id"] for t in states] == [first["id"], second["id"]]


def test_group_tokens(svc: FakeService) -> None:
    response = create(svc, "/groups/acme", access_level=20, scopes=["read_api"])
    assert response.status == 201
    made = response.json()
    assert (made["resource_type"], made["access_level"]) == ("group", 20)
    me = call(svc, "GET", "/user", token=made["token"]).json()
    assert re.fullmatch(r"group_\d+_bot_[0-9a-f]{32}", me["username"])
    # the bot reads the group's private subgroup project through its membership
    vault = call(svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault", token=made["token"])
    assert vault.status == 200
    listed = call(svc, "GET", "/groups/acme/access_tokens", token="alice-token").json()
    assert [t["id"] for t in listed] == [made["id"]]
    assert (
        call(svc, "DELETE", f"/groups/acme/access_tokens/{made['id']}", token="alice-token").status
        == 204
    )
    assert (
        call(svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault", token=made["token"]).status == 401
    )


def test_python_gitlab_project_and_group_tokens(served: tuple[FakeService, str]) -> None:
    _, url = served
    gl = gitlab.Gitlab(url, private_token="alice-token")
    project = gl.projects.get("acme/website")
    token = project.access_tokens.create({"name": "bot", "scopes": ["api"], "access_level": 30})
    assert token.token.startswith("glpat-") and token.access_level == 30
    assert [t.id for t in project.access_tokens.list(get_all=True)] == [token.id]
    assert project.access_tokens.get(token.id).name == "bot"
    token.rotate(expires_at="2026-02-01")
    assert token.expires_at == "2026-02-01"
    bot = gitlab.Gitlab(url, private_token=token.token)
    bot.auth()
    assert bot.user is not None and bot.user.username.startswith("project_1_bot_")
    # the bot rotates its own token
    own = bot.projects.get("acme/website", lazy=True).access_tokens.get(token.id, lazy=True)
    rotated = own.rotate(self_rotate=True)
    assert rotated["user_id"] == bot.user.id and rotated["id"] != token.id
    with pytest.raises(gitlab.GitlabAuthenticationError):
        bot.auth()
    token = project.access_tokens.get(rotated["id"])
    bot = gitlab.Gitlab(url, private_token=rotated["token"])
    project.access_tokens.delete(token.id)
    with pytest.raises(gitlab.GitlabAuthenticationError):
        bot.auth()

    group = gl.groups.get("acme")
    made = group.access_tokens.create({"name": "g", "scopes": ["read_api"], "access_level": 10})
    assert [t.name for t in group.access_tokens.list(get_all=True)] == ["g"]
    made.delete()
    assert group.access_tokens.get(made.id).revoked is True


def test_self_rotate_needs_the_resource_own_token(svc: FakeService) -> None:
    made = create(svc).json()
    path = f"{WEBSITE}/access_tokens/self/rotate"
    assert call(svc, "POST", path, token="alice-token").status == 403
    other = create(svc, "/projects/alice%2Fdotfiles").json()
    assert call(svc, "POST", path, token=other["token"]).status == 403
    rotated = call(svc, "POST", path, token=made["token"], json_body={"expires_at": "2026-01-15"})
    assert (rotated.status, rotated.json()["expires_at"]) == (200, "2026-01-15")
    assert call(svc, "GET", "/user", token=made["token"]).status == 401
