"""``/license`` and ``/licenses``: the license the scenario's plan implies (none on a free
plan: ``null``), adding a key (garbage and expired keys refused, nothing changed), the
plan following the current license, deleting, python-gitlab's ``get_license`` and
``set_license``."""

from __future__ import annotations

import base64
from typing import Any

import gitlab
import pytest
from support.admin import refused_to_non_admins
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.instance.license import INVALID, make_key
from fakeservice.instance.models import instance

SCENARIO_LICENSE = {
    "id": 1,
    "plan": "ultimate",
    "created_at": "2026-01-01T09:00:00Z",
    "starts_at": "2026-01-01",
    "expires_at": "2027-01-01",
    "historical_max": 44,
    "maximum_user_count": 44,
    "expired": False,
    "overage": 0,
    "user_limit": 0,
    "licensee": {"Name": "Fake Service", "Email": "admin@example.com", "Company": "fakeservice"},
    "add_ons": {},
    "active_users": 44,
}


def test_the_scenario_plan_is_the_license(svc: FakeService) -> None:
    assert body(call(svc, "GET", "/license")) == SCENARIO_LICENSE
    listed = body(call(svc, "GET", "/licenses"))
    assert listed == [{k: v for k, v in SCENARIO_LICENSE.items() if k != "active_users"}]


def test_a_free_instance_has_none() -> None:
    root = {"username": "root", "admin": True, "tokens": [{"name": "t", "token": ROOT}]}
    svc = FakeService({"plan": "free", "users": [root]})
    answer = call(svc, "GET", "/license")
    assert (answer.status, answer.body) == (200, b"null")
    assert body(call(svc, "GET", "/licenses")) == []


@refused_to_non_admins
def test_administrators_only(svc: FakeService, token: str | None, status: int, answer: Any) -> None:
    for method, path in (
        ("GET", "/license"),
        ("GET", "/licenses"),
        ("POST", "/license"),
        ("DELETE", "/license/1"),
    ):
        response = call(svc, method, path, token, json_body={"license": make_key("premium")})
        assert (response.status, body(response)) == (status, answer)
    assert instance(svc.store).plan == "ultimate"


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("garbage", INVALID),
        (None, INVALID),
        (12, INVALID),
        (base64.b64encode(b"[1, 2]").decode(), INVALID),
        (make_key("gold"), INVALID),
        (make_key("premium", user_limit=-1), INVALID),
        (make_key("premium", starts_at="someday"), INVALID),
        (make_key("premium", expires_at="2025-12-31"), "This license has already expired."),
    ],
)
def test_bad_keys_change_nothing(svc: FakeService, key: object, message: str) -> None:
    refused = call(svc, "POST", "/license", json_body={"license": key})
    assert (refused.status, body(refused)) == (400, {"message": message})
    assert body(call(svc, "GET", "/license")) == SCENARIO_LICENSE
    missing = call(svc, "POST", "/license")
    assert body(missing) == {"error": "license is missing"}


def test_the_plan_follows_the_current_license(svc: FakeService) -> None:
    key = make_key(
        "premium",
        licensee={"Name": "Ann", "Email": "ann@example.com", "Company": "Acme"},
        expires_at="2026-06-30",
        user_limit=40,
        add_ons={"GitLab_Auditor_User": 1},
    )
    added = call(svc, "POST", "/license", json_body={"license": key})
    assert added.status == 201
    assert body(added) == {
        "id": 2,
        "plan": "premium",
        "created_at": "2026-01-01T09:00:00Z",
        "starts_at": "2026-01-01",
        "expires_at": "2026-06-30",
        "historical_max": 44,
        "maximum_user_count": 44,
        "expired": False,
        "overage": 4,
        "user_limit": 40,
        "licensee": {"Name": "Ann", "Email": "ann@example.com", "Company": "Acme"},
        "add_ons": {"GitLab_Auditor_User": 1},
        "active_users": 44,
    }
    assert instance(svc.store).plan == "premium"
    assert [lic["id"] for lic in body(call(svc, "GET", "/licenses"))] == [2, 1]
    assert call(svc, "DELETE", "/license/2").status == 204
    assert instance(svc.store).plan == "ultimate"
    assert call(svc, "DELETE", "/license/1").status == 204
    assert (instance(svc.store).plan, call(svc, "GET", "/license").body) == ("free", b"null")
    gone = call(svc, "DELETE", "/license/1")
    assert (gone.status, body(gone)) == (404, {"message": "404 Not found"})


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    assert gl.get_license()["plan"] == "ultimate"
    added = gl.set_license(make_key("premium"))
    assert (added["id"], added["plan"]) == (2, "premium")
    assert gl.get_license()["id"] == 2
    with pytest.raises(gitlab.GitlabLicenseError, match="license key is invalid"):
        gl.set_license("not a key")
