"""Project and group access tokens declared in scenarios: bots named as the service names
them, members at the token's role; ``fakeservice check`` refuses a bad role."""

from __future__ import annotations

import re

import pytest
from support.calls import call
from support.services import track

from fakeservice import FakeService
from fakeservice.scenarios.problems import ScenarioError

WORLD = {
    "users": [{"username": "root", "name": "Root", "email": "root@x.example", "admin": True,
               "tokens": [{"token": "root-token", "scopes": ["api"]}]}],
    "groups": [
        {
            "path": "acme",
            "access_tokens": [
                {"token": "acme-bot", "name": "release bot", "role": "developer",
                 "scopes": ["read_api"], "expires_at": "2027-01-01"},
            ],
        }
    ],
    "projects": [
        {"path": "acme/site", "access_tokens": [{"token": "site-bot", "role": "reporter"}]}
    ],
}  # fmt: skip


def test_scenario_tokens_authenticate_as_member_bots() -> None:
    svc = track(FakeService(WORLD))
    group_bot = call(svc, "GET", "/user", token="acme-bot").json()
    assert re.fullmatch(r"group_\d+_bot_[0-9a-f]{32}", group_bot["username"])
    assert group_bot["name"] == "release bot"
    site_bot = call(svc, "GET", "/user", token="site-bot").json()
    assert re.fullmatch(r"project_\d+_bot_[0-9a-f]{32}", site_bot["username"])
    listed = call(svc, "GET", "/groups/acme/access_tokens").json()
    assert [(t["name"], t["access_level"], t["scopes"], t["expires_at"]) for t in listed] == [
        ("release bot", 30, ["read_api"], "2027-01-01")
    ]
    member = call(svc, "GET", f"/groups/acme/members/{group_bot['id']}").json()
    assert member["access_level"] == 30
    assert call(svc, "GET", "/projects/acme%2Fsite/access_tokens").json()[0]["access_level"] == 20


def test_a_bad_role_or_a_reused_secret_is_a_scenario_error() -> None:
    bad = {**WORLD, "groups": [{"path": "acme", "access_tokens": [{"token": "t", "role": "boss"}]}]}
    with pytest.raises(ScenarioError):
        FakeService(bad)
    twice = {
        **WORLD,
        "groups": [{"path": "acme", "access_tokens": [{"token": "root-token"}]}],
    }
    with pytest.raises(ScenarioError, match="used twice"):
        FakeService(twice)
