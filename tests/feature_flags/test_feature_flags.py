"""Project feature flags over raw HTTP: list (scope, pagination), get, create, update with
nested strategies and scopes, delete; validation messages; roles; scenarios."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call_as

from fakeservice import FakeService

FLAGS = "/projects/dan%2Fshop/feature_flags"
LISTS = "/projects/dan%2Fshop/feature_flags_user_lists"
NOW = "2026-03-01T12:00:00Z"


def test_scenario_flags_in_full(svc: FakeService) -> None:
    listed = body(call_as(svc, "GET", FLAGS, "dan"))
    assert [f["name"] for f in listed] == ["dark_mode", "new_checkout"]
    user_list = body(call_as(svc, "GET", f"{LISTS}/1", "dan"))
    assert listed[1] == {
        "name": "new_checkout",
        "description": "the new checkout",
        "active": True,
        "version": "new_version_flag",
        "created_at": NOW,
        "updated_at": NOW,
        "scopes": [],
        "strategies": [
            {
                "id": listed[1]["strategies"][0]["id"],
                "name": "flexibleRollout",
                "parameters": {"groupId": "default", "rollout": "25", "stickiness": "default"},
                "scopes": [
                    {
                        "id": listed[1]["strategies"][0]["scopes"][0]["id"],
                        "environment_scope": "production",
                    }
                ],
                "user_list": None,
            },
            {
                "id": listed[1]["strategies"][1]["id"],
                "name": "gitlabUserList",
                "parameters": {},
                "scopes": [
                    {"id": listed[1]["strategies"][1]["scopes"][0]["id"], "environment_scope": "*"}
                ],
                "user_list": {
                    "id": user_list["id"],
                    "iid": 1,
                    "name": "beta testers",
                    "user_xids": "u1,u2",
                },
            },
        ],
    }
    assert body(call_as(svc, "GET", f"{FLAGS}/new_checkout", "dan")) == listed[1]


def test_scope_filter_and_pagination(svc: FakeService) -> None:
    enabled = body(call_as(svc, "GET", FLAGS, "dan", scope="enabled"))
    assert [f["name"] for f in enabled] == ["new_checkout"]
    disabled = body(call_as(svc, "GET", FLAGS, "dan", scope="disabled"))
    assert [f["name"] for f in disabled] == ["dark_mode"]
    bad = call_as(svc, "GET", FLAGS, "dan", scope="all")
    assert (bad.status, body(bad)) == (400, {"error": "scope does not have a valid value"})
    page = call_as(svc, "GET", FLAGS, "dan", per_page=1, page=2)
    assert [f["name"] for f in body(page)] == ["new_checkout"]
    assert page.header("X-Total") == "2"


def test_create_update_delete(svc: FakeService) -> None:
    svc.clock.advance(seconds=60)
    created = call_as(
        svc,
        "POST",
        FLAGS,
        "dan",
        body={
            "name": "search_v2",
            "strategies": [
                {
                    "name": "gradualRolloutUserId",
                    "parameters": {"groupId": "default", "percentage": "50"},
                    "scopes": [{"environment_scope": "staging"}],
                }
            ],
        },
    )
    assert created.status == 201
    flag = body(created)
    assert (flag["active"], flag["description"], flag["created_at"]) == (
        True,
        None,
        "2026-03-01T12:01:00Z",
    )
    strategy = flag["strategies"][0]
    svc.clock.advance(seconds=60)
    edit = {
        "name": "search_v3",
        "active": False,
        "strategies": [
            {
                "id": strategy["id"],
                "parameters": {"groupId": "default", "percentage": "100"},
                "scopes": [
                    {"id": strategy["scopes"][0]["id"], "_destroy": True},
                    {"environment_scope": "production"},
                ],
            },
            {"name": "userWithId", "parameters": {"userIds": "a,b"}},
        ],
    }
    updated = body(call_as(svc, "PUT", f"{FLAGS}/search_v2", "dan", body=edit))
    assert (updated["name"], updated["active"], updated["updated_at"]) == (
        "search_v3",
        False,
        "2026-03-01T12:02:00Z",
    )
    first, second = updated["strategies"]
    assert first["id"] == strategy["id"] and first["parameters"]["percentage"] == "100"
    assert [s["environment_scope"] for s in first["scopes"]] == ["production"]
    assert second["name"] == "userWithId" and second["scopes"] == []
    assert body(call_as(svc, "GET", f"{FLAGS}/search_v3", "dan")) == updated
    assert call_as(svc, "GET", f"{FLAGS}/search_v2", "dan").status == 404
    deleted = call_as(svc, "DELETE", f"{FLAGS}/search_v3", "dan")
    assert (deleted.status, body(deleted)) == (200, updated)
    missing = call_as(svc, "GET", f"{FLAGS}/search_v3", "dan")
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})


@pytest.mark.parametrize(
    ("fields", "messages"),
    [
        ({"name": "dark_mode"}, ["Name has already been taken"]),
        (
            {"name": "Bad-"},
            [
                "Name can contain only lowercase letters, digits, '_' and '-'. "
                "Must start with a letter, and cannot end with '-' or '_'"
            ],
        ),
        (
            {"name": "ok", "description": "d" * 256},
            ["Description is too long (maximum is 255 characters)"],
        ),
        (
            {"name": "ok", "strategies": [{"name": "nope", "parameters": {}}]},
            ["Strategies name strategy name is invalid"],
        ),
        (
            {"name": "ok", "strategies": [{"name": "default", "parameters": {"x": "1"}}]},
            ["Strategies parameters parameters are invalid"],
        ),
        (
            {
                "name": "ok",
                "strategies": [
                    {
                        "name": "gradualRolloutUserId",
                        "parameters": {"groupId": "A", "percentage": "101"},
                    }
                ],
            },
            [
                "Strategies parameters percentage must be a string between 0 and 100 inclusive",
                "Strategies parameters groupId parameter is invalid",
            ],
        ),
        (
            {
                "name": "ok",
                "strategies": [{"name": "userWithId", "parameters": {"userIds": "a,a"}}],
            },
            [
                "Strategies parameters userIds must be a string of unique comma separated values each 256 characters or less"
            ],
        ),
        (
            {"name": "ok", "strategies": [{"name": "gitlabUserList", "parameters": {}}]},
            ["Strategies user list can't be blank"],
        ),
        (
            {
                "name": "ok",
                "strategies": [{"name": "default", "parameters": {}, "user_list_id": 1}],
            },
            ["Strategies user list must be blank"],
        ),
        (
            {
                "name": "ok",
                "strategies": [
                    {
                        "name": "default",
                        "parameters": {},
                        "scopes": [{"environment_scope": "a"}, {"environment_scope": "a"}],
                    }
                ],
            },
            ["Strategies scopes environment scope has already been taken"],
        ),
    ],
)
def test_validation_changes_nothing(
    svc: FakeService, fields: dict[str, Any], messages: list[str]
) -> None:
    before = body(call_as(svc, "GET", FLAGS, "dan"))
    response = call_as(svc, "POST", FLAGS, "dan", body=fields)
    assert (response.status, body(response)) == (400, {"message": messages})
    assert body(call_as(svc, "GET", FLAGS, "dan")) == before


def test_declared_parameter_errors(svc: FakeService) -> None:
    missing = call_as(svc, "POST", FLAGS, "dan", body={"strategies": [{"name": "default"}]})
    assert body(missing) == {"error": "name is missing, strategies[0][parameters] is missing"}
    legacy = call_as(svc, "POST", FLAGS, "dan", body={"name": "x1", "version": "legacy_flag"})
    assert body(legacy) == {"error": "version does not have a valid value"}
    text = call_as(
        svc,
        "POST",
        FLAGS,
        "dan",
        body={"name": "x1", "strategies": [{"name": "default", "parameters": "{}"}]},
    )
    assert text.status == 201
    broken = call_as(
        svc,
        "POST",
        FLAGS,
        "dan",
        body={"name": "x2", "strategies": [{"name": "default", "parameters": "{"}]},
    )
    assert body(broken) == {"error": "strategies[0][parameters] is invalid"}
    unknown = call_as(
        svc, "PUT", f"{FLAGS}/x1", "dan", body={"strategies": [{"id": 999999, "_destroy": True}]}
    )
    assert (unknown.status, body(unknown)) == (404, {"message": "404 Not found"})


def test_a_user_list_of_another_project_is_refused(svc: FakeService) -> None:
    other = call_as(
        svc,
        "POST",
        "/projects/dan%2Fother/feature_flags_user_lists",
        "dan",
        body={"name": "x", "user_xids": "a"},
    )
    strategy = {"name": "gitlabUserList", "parameters": {}, "user_list_id": body(other)["id"]}
    response = call_as(svc, "POST", FLAGS, "dan", body={"name": "ok", "strategies": [strategy]})
    assert body(response) == {"message": ["Strategies user list must belong to the same project"]}


def test_roles_and_access_level(svc: FakeService) -> None:
    for who in ("rita", "otto", None):
        refused = call_as(svc, "GET", FLAGS, who)
        assert (refused.status, body(refused)) == (403, {"message": "403 Forbidden"})
    assert call_as(svc, "GET", "/projects/dan%2Fother/feature_flags", "otto").status == 404
    assert call_as(svc, "POST", FLAGS, "rita", body={"name": "zz"}).status == 403
    call_as(
        svc, "PUT", "/projects/dan%2Fshop", "dan", body={"feature_flags_access_level": "disabled"}
    )
    assert call_as(svc, "GET", FLAGS, "dan").status == 403


def test_deleting_the_project_drops_flags(svc: FakeService) -> None:
    from fakeservice.feature_flags.records import flags, user_lists

    assert call_as(svc, "DELETE", "/projects/dan%2Fshop", "root").status in (202, 204)
    assert len(flags(svc.store)) == 0 and len(user_lists(svc.store)) == 0


PERCENT = st.one_of(st.integers(-5, 120).map(str), st.text("0123456789 x", max_size=4))


@settings(max_examples=40, deadline=None)
@given(percentage=PERCENT, group=st.text("abcZ1_", max_size=34))
def test_gradual_rollout_parameters(percentage: str, group: str) -> None:
    from support.services import stamp

    from tests.feature_flags.conftest import WORLD

    svc = stamp(WORLD, "feature-flags-world")
    strategy = {
        "name": "gradualRolloutUserId",
        "parameters": {"groupId": group, "percentage": percentage},
    }
    response = call_as(
        svc, "POST", FLAGS, "dan", body={"name": "rollout", "strategies": [strategy]}
    )
    valid_percent = (
        percentage.isdigit() and str(int(percentage)) == percentage and 0 <= int(percentage) <= 100
    )
    valid_group = 1 <= len(group) <= 32 and all("a" <= c <= "z" for c in group)
    assert response.status == (201 if valid_percent and valid_group else 400)
    names = [f["name"] for f in body(call_as(svc, "GET", FLAGS, "dan"))]
    assert ("rollout" in names) == (response.status == 201)
