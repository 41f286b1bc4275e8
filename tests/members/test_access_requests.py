"""Access requests of projects and groups through raw requests: asking, listing,
approving (the user becomes a member), denying and withdrawing, the refusals, and the
``access_requests`` scenario key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService
from fakeservice.scenarios.loader import ScenarioError

from .conftest import WORLD
from .helpers import roles, uid

SITE = "/projects/alpha%2Fsite"
ALPHA = "/groups/alpha"
BETA = "/groups/alpha%2Fbeta"
NOW = "2026-03-01T12:00:00Z"


def ask(svc: FakeService, base: str, who: str) -> Any:
    return svc.request("POST", f"{base}/access_requests", token=f"{who}-token")


def listed(svc: FakeService, base: str, who: str = "olga") -> list[str]:
    response = svc.request("GET", f"{base}/access_requests", token=f"{who}-token")
    assert response.status == 200, response.body
    return [r["username"] for r in response.json()]


def test_request_answers_the_requester_with_requested_at(svc: FakeService) -> None:
    response = ask(svc, SITE, "otto")
    assert response.status == 201
    assert response.json() == {
        "id": uid(svc, "otto"),
        "username": "otto",
        "name": "Otto Example",
        "state": "active",
        "locked": False,
        "avatar_url": None,
        "web_url": "http://fakeservice.test/otto",
        "created_at": NOW,
        "requested_at": NOW,
    }
    assert listed(svc, SITE, "dan") == ["otto"]


def test_asking_twice_is_the_models_400(svc: FakeService) -> None:
    ask(svc, SITE, "otto")
    again = ask(svc, SITE, "otto")
    assert (again.status, again.json()) == (
        400,
        {"message": {"user": ["already exists in source"]}},
    )
    assert listed(svc, SITE, "dan") == ["otto"]


@pytest.mark.parametrize(
    ("base", "who"),
    [(SITE, "pat"), (SITE, "olga"), (ALPHA, "dan"), (BETA, "dan")],  # direct and inherited
)
def test_members_may_not_ask(svc: FakeService, base: str, who: str) -> None:
    response = ask(svc, base, who)
    assert (response.status, response.json()) == (403, {"message": "403 Forbidden"})
    assert listed(svc, base) == []


def test_sources_with_requests_disabled_refuse(svc: FakeService) -> None:
    for base in (SITE, ALPHA):
        off = svc.request(
            "PUT", base, json_body={"request_access_enabled": False}, token="olga-token"
        )
        assert off.status == 200 and off.json()["request_access_enabled"] is False
        assert ask(svc, base, "otto").status == 403
        assert listed(svc, base) == []


def test_unseen_and_unknown_sources_are_404(svc: FakeService) -> None:
    for base in ("/projects/alpha%2Fbeta%2Fgamma%2Fvault", "/projects/999", "/groups/solo"):
        response = ask(svc, base, "otto")
        assert response.status == 404, base
    assert svc.request("POST", f"{SITE}/access_requests").status == 401


def test_only_maintainers_list(svc: FakeService) -> None:
    ask(svc, SITE, "otto")
    for who in ("pat", "otto", "carl"):
        response = svc.request("GET", f"{SITE}/access_requests", token=f"{who}-token")
        assert response.status == 403, who
    assert listed(svc, SITE, "dan") == listed(svc, SITE, "root") == ["otto"]


def test_list_is_oldest_first_and_paginated(svc: FakeService) -> None:
    for who in ("otto", "carl", "eve"):
        assert ask(svc, ALPHA, who).status == 201
        svc.clock.advance(seconds=60)
    response = svc.request(
        "GET", f"{ALPHA}/access_requests", query={"per_page": 2}, token="olga-token"
    )
    assert [r["username"] for r in response.json()] == ["otto", "carl"]
    assert response.header("X-Total") == "3" and response.header("X-Next-Page") == "2"
    assert [r["requested_at"] for r in response.json()] == [NOW, "2026-03-01T12:01:00Z"]


def test_approve_makes_a_developer_by_default(svc: FakeService) -> None:
    ask(svc, SITE, "otto")
    svc.clock.advance(seconds=30)
    otto = uid(svc, "otto")
    response = svc.request("PUT", f"{SITE}/access_requests/{otto}/approve", token="dan-token")
    assert response.status == 200
    body = response.json()
    assert (body["id"], body["access_level"], body["created_by"]["username"]) == (otto, 30, "dan")
    assert body["created_at"] == "2026-03-01T12:00:30Z"
    assert listed(svc, SITE, "dan") == []
    members = svc.request("GET", f"{SITE}/members", token="dan-token")
    assert ("otto", 30) in roles(members)
    assert ask(svc, SITE, "otto").status == 403  # a member now


def test_approve_with_a_level_and_the_owner_rule(svc: FakeService) -> None:
    otto = uid(svc, "otto")
    ask(svc, BETA, "otto")
    owner = {"access_level": 50}
    denied = svc.request(
        "PUT", f"{BETA}/access_requests/{otto}/approve", json_body=owner, token="mia-token"
    )
    assert denied.status == 403
    assert listed(svc, BETA, "mia") == ["otto"]
    done = svc.request(
        "PUT", f"{BETA}/access_requests/{otto}/approve", json_body=owner, token="olga-token"
    )
    assert (done.status, done.json()["access_level"]) == (200, 50)


@pytest.mark.parametrize(
    ("body", "answer"),
    [
        ({"access_level": 35}, {"message": {"access_level": ["is not included in the list"]}}),
        ({"access_level": "high"}, {"error": "access_level is invalid"}),
    ],
)
def test_bad_levels_leave_the_request(
    svc: FakeService, body: dict[str, Any], answer: dict[str, Any]
) -> None:
    ask(svc, SITE, "otto")
    response = svc.request(
        "PUT", f"{SITE}/access_requests/{uid(svc, 'otto')}/approve", json_body=body,
        token="dan-token",
    )  # fmt: skip
    assert (response.status, response.json()) == (400, answer)
    assert listed(svc, SITE, "dan") == ["otto"]
    members = roles(svc.request("GET", f"{SITE}/members", token="dan-token"))
    assert "otto" not in [username for username, _ in members]


def test_unknown_requests_are_404(svc: FakeService) -> None:
    otto = uid(svc, "otto")
    for method, path in (
        ("PUT", f"{SITE}/access_requests/{otto}/approve"),
        ("DELETE", f"{SITE}/access_requests/{otto}"),
        ("DELETE", f"{SITE}/access_requests/99999"),
    ):
        response = svc.request(method, path, token="dan-token")
        assert (response.status, response.json()) == (404, {"message": "404 Not found"}), path
    bad = svc.request("DELETE", f"{SITE}/access_requests/otto", token="dan-token")
    assert (bad.status, bad.json()) == (400, {"error": "user_id is invalid"})


def test_deny_and_withdraw(svc: FakeService) -> None:
    ask(svc, ALPHA, "otto")
    ask(svc, ALPHA, "carl")
    otto, carl = uid(svc, "otto"), uid(svc, "carl")
    other = svc.request("DELETE", f"{ALPHA}/access_requests/{otto}", token="carl-token")
    assert other.status == 403
    withdrawn = svc.request("DELETE", f"{ALPHA}/access_requests/{otto}", token="otto-token")
    assert (withdrawn.status, withdrawn.body) == (204, b"")
    denied = svc.request("DELETE", f"{ALPHA}/access_requests/{carl}", token="olga-token")
    assert denied.status == 204
    assert listed(svc, ALPHA) == []
    assert [u for u, _ in roles(svc.request("GET", f"{ALPHA}/members", token="olga-token"))] == [
        "olga",
        "dan",
    ]


def test_deleting_the_source_drops_its_requests(svc: FakeService) -> None:
    from fakeservice.members.requests import access_requests

    ask(svc, SITE, "otto")
    assert svc.request("DELETE", SITE, token="olga-token").status == 202
    assert list(access_requests(svc.store).select("all")) == []


def test_scenario_key(make_service: Callable[..., FakeService]) -> None:
    world = {**WORLD, "groups": [dict(g) for g in WORLD["groups"]]}
    world["groups"][0]["access_requests"] = [
        {"user": "otto", "requested_at": "2026-02-20T08:00:00Z"},
        {"user": "carl"},
    ]
    svc = make_service(world)
    response = svc.request("GET", f"{ALPHA}/access_requests", token="olga-token")
    assert [(r["username"], r["requested_at"]) for r in response.json()] == [
        ("otto", "2026-02-20T08:00:00Z"),
        ("carl", NOW),
    ]


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ([{"user": "dan"}], "dan is already a member"),
        ([{"user": "otto"}, {"user": "otto"}], "otto already asked"),
        ([{"user": "nobody"}], "unknown user"),
    ],
)
def test_scenario_problems(entries: list[dict[str, Any]], problem: str) -> None:
    world = {**WORLD, "groups": [dict(g) for g in WORLD["groups"]]}
    world["groups"][0]["access_requests"] = entries
    with pytest.raises(ScenarioError) as raised:
        FakeService(world)
    assert problem in str(raised.value)


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["ask", "approve", "deny", "withdraw"]),
        st.sampled_from(["otto", "carl", "eve", "pat"]),
    ),
    max_size=12,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
def test_never_both_member_and_requester(svc: FakeService, actions: list[tuple[str, str]]) -> None:
    svc.reset()
    for action, who in actions:
        user = uid(svc, who)
        if action == "ask":
            response = ask(svc, SITE, who)
        elif action == "approve":
            response = svc.request(
                "PUT", f"{SITE}/access_requests/{user}/approve", token="dan-token"
            )
        else:
            token = "dan-token" if action == "deny" else f"{who}-token"
            response = svc.request("DELETE", f"{SITE}/access_requests/{user}", token=token)
        assert response.status < 500
    requesters = set(listed(svc, SITE, "dan"))
    members = {u for u, _ in roles(svc.request("GET", f"{SITE}/members", token="dan-token"))}
    assert not requesters & members
    assert "pat" not in requesters
