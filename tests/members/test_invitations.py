"""Invitations of projects and groups through raw requests: inviting addresses and user
ids (users become members at once), listing with ``query``, changing and deleting an
invitation, the per-entry errors, the refusals, and the ``invitations`` scenario key."""

from __future__ import annotations

import datetime as dt
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
NOW = "2026-03-01T12:00:00Z"


def invite(svc: FakeService, base: str, who: str = "olga", **fields: Any) -> Any:
    return svc.request("POST", f"{base}/invitations", json_body=fields, token=f"{who}-token")


def pending(svc: FakeService, base: str, **query: Any) -> list[dict[str, Any]]:
    response = svc.request("GET", f"{base}/invitations", query=query, token="olga-token")
    assert response.status == 200, response.body
    return response.json()


def member_names(svc: FakeService, base: str) -> list[str]:
    return [u for u, _ in roles(svc.request("GET", f"{base}/members", token="olga-token"))]


def test_invite_an_address_then_list_it(svc: FakeService) -> None:
    response = invite(
        svc, SITE, "dan", email="new@example.org", access_level=20, expires_at="2026-12-31"
    )
    assert (response.status, response.json()) == (201, {"status": "success"})
    assert pending(svc, SITE) == [
        {
            "id": 1,
            "invite_email": "new@example.org",
            "created_at": NOW,
            "access_level": 20,
            "expires_at": "2026-12-31",
            "user_name": None,
            "created_by_name": "Dan Example",
        }
    ]
    assert "new@example.org" not in member_names(svc, SITE)


def test_users_by_id_or_address_become_members(svc: FakeService) -> None:
    otto, carl = uid(svc, "otto"), uid(svc, "carl")
    response = invite(
        svc, ALPHA, user_id=f"{otto},{carl}", email="mia@example.com", access_level=30
    )
    assert response.json() == {"status": "success"}
    assert pending(svc, ALPHA) == []
    assert member_names(svc, ALPHA) == ["olga", "dan", "otto", "carl", "mia"]
    again = invite(svc, ALPHA, user_id=str(otto), access_level=40)
    assert again.json() == {"status": "success"}
    assert ("otto", 40) in roles(svc.request("GET", f"{ALPHA}/members", token="olga-token"))


def test_each_failing_entry_is_reported_and_the_rest_done(svc: FakeService) -> None:
    invite(svc, SITE, email="taken@example.org", access_level=30)
    response = invite(
        svc,
        SITE,
        email="taken@example.org,not-an-address,fresh@example.org",
        user_id="99999,abc",
        access_level=30,
    )
    assert (response.status, response.json()) == (
        201,
        {
            "status": "error",
            "message": {
                "99999": "User not found",
                "abc": "User not found",
                "taken@example.org": "Invite email has already been taken",
                "not-an-address": "Invite email is invalid",
            },
        },
    )
    assert [i["invite_email"] for i in pending(svc, SITE)] == [
        "taken@example.org",
        "fresh@example.org",
    ]


@pytest.mark.parametrize(
    ("fields", "answer"),
    [
        (
            {"access_level": 30},
            {"error": "email, user_id are missing, at least one parameter must be provided"},
        ),
        (
            {"email": "x@example.org", "access_level": 35},
            {"message": {"access_level": ["is not included in the list"]}},
        ),
        (
            {"email": "x@example.org", "access_level": 30, "expires_at": "2020-01-01"},
            {"message": {"expires_at": ["cannot be a date in the past"]}},
        ),
        ({"email": "x@example.org", "access_level": "high"}, {"error": "access_level is invalid"}),
    ],
)
def test_bad_input_is_400_and_changes_nothing(
    svc: FakeService, fields: dict[str, Any], answer: dict[str, Any]
) -> None:
    response = invite(svc, SITE, **fields)
    assert (response.status, response.json()) == (400, answer)
    assert pending(svc, SITE) == []


def test_permissions(svc: FakeService) -> None:
    assert invite(svc, SITE, "pat", email="a@example.org", access_level=30).status == 403
    owner = invite(svc, "/groups/alpha%2Fbeta", "mia", email="a@example.org", access_level=50)
    assert owner.status == 403
    hidden = invite(svc, "/groups/solo", "otto", email="a@example.org", access_level=30)
    assert hidden.status == 404
    assert svc.request("GET", f"{SITE}/invitations", token="pat-token").status == 403
    assert svc.request("GET", f"{SITE}/invitations").status == 401
    assert pending(svc, SITE) == []


def test_query_filters_by_address(svc: FakeService) -> None:
    invite(svc, ALPHA, email="ann@one.example,bob@two.example,Cid@ONE.example", access_level=30)
    assert [i["invite_email"] for i in pending(svc, ALPHA, query="one.ex")] == [
        "ann@one.example",
        "Cid@ONE.example",
    ]


@pytest.mark.parametrize("address", ["new@example.org", "new%40example.org", "NEW@example.org"])
def test_update_round_trips_and_delete(svc: FakeService, address: str) -> None:
    invite(svc, SITE, email="new@example.org", access_level=30)
    changed = svc.request(
        "PUT",
        f"{SITE}/invitations/{address}",
        json_body={"access_level": 40, "expires_at": "2027-01-15"},
        token="olga-token",
    )
    assert changed.status == 200
    assert (changed.json()["access_level"], changed.json()["expires_at"]) == (40, "2027-01-15")
    [listed] = pending(svc, SITE)
    assert listed == changed.json()
    cleared = svc.request(
        "PUT", f"{SITE}/invitations/{address}", json_body={"expires_at": ""}, token="olga-token"
    )
    assert (cleared.json()["access_level"], cleared.json()["expires_at"]) == (40, None)
    gone = svc.request("DELETE", f"{SITE}/invitations/{address}", token="olga-token")
    assert (gone.status, gone.body) == (204, b"")
    assert pending(svc, SITE) == []


def test_unknown_invitations_and_bad_updates(svc: FakeService) -> None:
    for method in ("PUT", "DELETE"):
        response = svc.request(method, f"{SITE}/invitations/nobody@example.org", token="olga-token")
        assert (response.status, response.json()) == (404, {"message": "404 Invitation Not Found"})
    invite(svc, SITE, email="new@example.org", access_level=30)
    bad = svc.request(
        "PUT",
        f"{SITE}/invitations/new@example.org",
        json_body={"access_level": 7},
        token="olga-token",
    )
    assert bad.status == 400
    assert pending(svc, SITE)[0]["access_level"] == 30
    by_developer = svc.request("DELETE", f"{SITE}/invitations/new@example.org", token="pat-token")
    assert by_developer.status == 403


def test_deleting_the_source_drops_its_invitations(svc: FakeService) -> None:
    from fakeservice.members.invites import invitations

    invite(svc, SITE, email="new@example.org", access_level=30)
    assert svc.request("DELETE", SITE, token="olga-token").status == 202
    assert list(invitations(svc.store).select("all")) == []


def _with_invitations(entries: list[dict[str, Any]]) -> dict[str, Any]:
    world = {**WORLD, "projects": [dict(p) for p in WORLD["projects"]]}
    world["projects"][0]["invitations"] = entries
    return world


def test_scenario_key(make_service: Callable[..., FakeService]) -> None:
    svc = make_service(
        _with_invitations(
            [
                {"email": "a@example.org", "role": "maintainer", "invited_by": "dan"},
                {"email": "b@example.org", "expires_at": "2026-06-30"},
            ]
        )
    )
    assert [
        (i["invite_email"], i["access_level"], i["expires_at"], i["created_by_name"])
        for i in pending(svc, SITE)
    ] == [("a@example.org", 40, None, "Dan Example"), ("b@example.org", 30, "2026-06-30", None)]


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ([{"email": "dan@example.com"}], "is a user's address"),
        ([{"email": "a@example.org"}, {"email": "A@example.org"}], "invited twice"),
        ([{"email": "nothing"}], "is not an address"),
        ([{"email": "a@example.org", "invited_by": "ghost"}], "unknown user"),
    ],
)
def test_scenario_problems(entries: list[dict[str, Any]], problem: str) -> None:
    with pytest.raises(ScenarioError) as raised:
        FakeService(_with_invitations(entries))
    assert problem in str(raised.value)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    level=st.sampled_from([10, 15, 20, 30, 40, 50]),
    days=st.none() | st.integers(min_value=0, max_value=800),
)
def test_settings_round_trip(svc: FakeService, level: int, days: int | None) -> None:
    svc.reset()
    expires = None if days is None else (dt.date(2026, 3, 1) + dt.timedelta(days=days)).isoformat()
    invite(svc, ALPHA, email="round@example.org", access_level=30)
    changed = svc.request(
        "PUT",
        f"{ALPHA}/invitations/round@example.org",
        json_body={"access_level": level, "expires_at": expires or ""},
        token="olga-token",
    )
    assert changed.status == 200
    [listed] = pending(svc, ALPHA)
    assert (listed["access_level"], listed["expires_at"]) == (level, expires)
    assert listed == changed.json()
