"""Personal access tokens: the list's filters (administrators see everyone's), rotation by
id and of the request's own token (old one revoked, a week's expiry by default)."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import call

from fakeservice import FakeService


def issue(svc: FakeService, user: int = 2, **body: Any) -> Any:
    payload = {"name": "made", "scopes": ["api"], **body}
    response = call(svc, "POST", f"/users/{user}/personal_access_tokens", json_body=payload)
    assert response.status == 201
    return response.json()


def names(response: Any) -> list[str]:
    assert response.status == 200, response.body
    return [t["name"] for t in response.json()]


def test_an_administrator_lists_every_token_and_filters_by_user(svc: FakeService) -> None:
    everyone = call(svc, "GET", "/personal_access_tokens", query={"per_page": "100"})
    assert names(everyone) == ["admin", "laptop", "dashboards", "contract"]
    assert everyone.header("X-Total") == "4"
    assert names(call(svc, "GET", "/personal_access_tokens", query={"user_id": "3"})) == [
        "dashboards"
    ]


def test_filters_state_revoked_search_and_created(svc: FakeService) -> None:
    issue(svc, name="Deploy Bot")
    gone = issue(svc, name="old deploy")
    call(svc, "DELETE", f"/personal_access_tokens/{gone['id']}")
    svc.clock.advance(seconds=3600)
    issue(svc, name="later")

    def listed(**query: str) -> list[str]:
        return names(call(svc, "GET", "/personal_access_tokens", query={"user_id": "2", **query}))

    assert listed(state="inactive") == ["old deploy"]
    assert listed(state="active") == ["laptop", "Deploy Bot", "later"]
    assert listed(revoked="true") == ["old deploy"]
    assert listed(search="DEPLOY") == ["Deploy Bot", "old deploy"]
    assert listed(created_after="2026-01-01T09:30:00Z") == ["later"]
    assert listed(created_before="2026-01-01T09:30:00Z", revoked="false") == [
        "laptop",
        "Deploy Bot",
    ]
    assert listed(last_used_after="2026-01-01T00:00:00Z") == []


def test_filter_values_are_checked(svc: FakeService) -> None:
    response = call(svc, "GET", "/personal_access_tokens", query={"state": "gone"})
    assert (response.status, response.json()) == (
        400,
        {"error": "state does not have a valid value"},
    )
    response = call(svc, "GET", "/personal_access_tokens", query={"created_after": "soon"})
    assert (response.status, response.json()) == (400, {"error": "created_after is invalid"})


def test_a_user_lists_only_their_own_and_gets_401_for_another_user(svc: FakeService) -> None:
    assert names(call(svc, "GET", "/personal_access_tokens", token="alice-token")) == ["laptop"]
    other = call(svc, "GET", "/personal_access_tokens", token="alice-token", query={"user_id": "1"})
    assert (other.status, other.json()) == (401, {"message": "401 Unauthorized"})


def test_rotate_by_id_revokes_the_old_token_and_expires_in_a_week(svc: FakeService) -> None:
    made = issue(svc, scopes=["api", "read_user"], description="ci", expires_at="2026-06-01")
    response = call(
        svc, "POST", f"/personal_access_tokens/{made['id']}/rotate", token=made["token"]
    )
    assert response.status == 200
    new = response.json()
    assert new["id"] > made["id"] and new["token"] != made["token"]
    assert {k: new[k] for k in ("name", "scopes", "description", "user_id", "expires_at")} == {
        "name": "made",
        "scopes": ["api", "read_user"],
        "description": "ci",
        "user_id": 2,
        "expires_at": "2026-01-08",
    }
    old = call(svc, "GET", f"/personal_access_tokens/{made['id']}").json()
    assert (old["revoked"], old["active"]) == (True, False)
    assert call(svc, "GET", "/user", token=made["token"]).status == 401
    assert call(svc, "GET", "/user", token=new["token"]).json()["username"] == "alice"


def test_rotate_with_an_expiry_and_errors(svc: FakeService) -> None:
    made = issue(svc)
    path = f"/personal_access_tokens/{made['id']}/rotate"
    past = call(svc, "POST", path, json_body={"expires_at": "2025-12-31"})
    assert (past.status, past.json()) == (
        400,
        {"message": {"expires_at": ["must be in the future"]}},
    )
    assert call(svc, "GET", f"/personal_access_tokens/{made['id']}").json()["revoked"] is False
    rotated = call(svc, "POST", path, json_body={"expires_at": "2026-03-01"})
    assert rotated.json()["expires_at"] == "2026-03-01"
    again = call(svc, "POST", path)
    assert (again.status, again.json()) == (
        400,
        {"message": "400 Bad request - token already revoked"},
    )
    foreign = call(svc, "POST", "/personal_access_tokens/1/rotate", token="bob-read-token")
    assert foreign.status == 403  # read_api cannot write
    foreign = call(svc, "POST", "/personal_access_tokens/1/rotate", token="carol-token")
    assert foreign.status == 404


def test_self_rotate(svc: FakeService) -> None:
    response = call(svc, "POST", "/personal_access_tokens/self/rotate", token="alice-token")
    assert response.status == 200
    new = response.json()
    assert (new["name"], new["expires_at"]) == ("laptop", "2026-01-08")
    assert call(svc, "GET", "/user", token="alice-token").status == 401
    me = call(svc, "GET", "/personal_access_tokens/self", token=new["token"]).json()
    assert me["id"] == new["id"]


def test_python_gitlab_lists_gets_rotates_and_deletes(served: tuple[FakeService, str]) -> None:
    _, url = served
    gl = gitlab.Gitlab(url, private_token="root-token")
    listed = gl.personal_access_tokens.list(user_id=2, get_all=True)
    assert [t.name for t in listed] == ["laptop"]
    token = gl.personal_access_tokens.get(listed[0].id)
    token.rotate()
    assert token.expires_at == "2026-01-08" and token.token.startswith("glpat-")
    alice = gitlab.Gitlab(url, private_token=token.token)
    mine = alice.personal_access_tokens.list(get_all=True)
    assert [(t.id, t.revoked) for t in mine] == [(listed[0].id, True), (token.id, False)]
    own = alice.personal_access_tokens.get(token.id)
    rotated = own.rotate(self_rotate=True)
    assert rotated["id"] != token.id
    gl.personal_access_tokens.delete(rotated["id"])
    with pytest.raises(gitlab.GitlabAuthenticationError):
        gitlab.Gitlab(url, private_token=rotated["token"]).auth()
