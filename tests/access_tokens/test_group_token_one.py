"""One group access token: get, rotate by id and ``self/rotate`` (the token's own bot),
over raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import call

from fakeservice import FakeService

from .test_resource import FIELDS, create

GROUP = "/groups/acme"


def test_get_and_rotate_a_group_token(svc: FakeService) -> None:
    made = create(svc, GROUP, access_level=30, scopes=["api"]).json()
    got = call(svc, "GET", f"{GROUP}/access_tokens/{made['id']}", token="alice-token")
    assert got.status == 200
    shown = got.json()
    assert set(shown) == FIELDS
    assert {k: shown[k] for k in ("id", "name", "scopes", "access_level", "resource_type")} == {
        "id": made["id"],
        "name": "ci bot",
        "scopes": ["api"],
        "access_level": 30,
        "resource_type": "group",
    }
    rotated = call(
        svc,
        "POST",
        f"{GROUP}/access_tokens/{made['id']}/rotate",
        token="alice-token",
        json_body={"expires_at": "2026-03-01"},
    )
    assert rotated.status == 200
    new = rotated.json()
    assert (new["expires_at"], new["user_id"], new["name"]) == (
        "2026-03-01",
        made["user_id"],
        "ci bot",
    )
    assert new["id"] != made["id"] and new["token"] != made["token"]
    assert call(svc, "GET", "/user", token=made["token"]).status == 401
    old = call(svc, "GET", f"{GROUP}/access_tokens/{made['id']}", token="alice-token").json()
    assert (old["revoked"], old["active"]) == (True, False)
    # the bot rotates its own token; the owner's token cannot
    own = f"{GROUP}/access_tokens/self/rotate"
    assert call(svc, "POST", own, token="alice-token").status == 403
    again = call(svc, "POST", own, token=new["token"])
    assert again.status == 200
    assert again.json()["user_id"] == made["user_id"] and again.json()["id"] != new["id"]
    assert call(svc, "GET", "/user", token=new["token"]).status == 401
    me = call(svc, "GET", "/user", token=again.json()["token"]).json()
    assert me["id"] == made["user_id"]


def test_python_gitlab_group_token(served: tuple[FakeService, str]) -> None:
    _, url = served
    gl = gitlab.Gitlab(url, private_token="alice-token")
    group = gl.groups.get("acme")
    made = group.access_tokens.create({"name": "g", "scopes": ["api"], "access_level": 40})
    got = group.access_tokens.get(made.id)
    assert (got.name, got.access_level, got.resource_id) == ("g", 40, group.id)
    got.rotate(expires_at="2026-02-01")
    assert got.expires_at == "2026-02-01" and got.id != made.id
    bot = gitlab.Gitlab(url, private_token=got.token)
    lazy = bot.groups.get("acme", lazy=True).access_tokens.get(got.id, lazy=True)
    rotated = lazy.rotate(self_rotate=True)
    assert rotated["user_id"] == made.user_id
    with pytest.raises(gitlab.GitlabAuthenticationError):
        bot.auth()
