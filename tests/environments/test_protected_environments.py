"""Protected environments over raw HTTP (seed 000 §4.5): shapes, ordering, pagination,
every error, the access rules, state after each call, and the scenario key."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DORA,
    GUS,
    LEGACY,
    MAYA,
    OTTO,
    SHOP,
    ids,
    new_service,
)

PATH = f"/projects/{SHOP}/protected_environments"


def protect(svc: FakeService, payload: dict[str, Any], token: str = MAYA) -> Any:
    return call(svc, "POST", PATH, token, json_body=payload)


def names(svc: FakeService, token: str = MAYA) -> list[str]:
    response = call(svc, "GET", PATH, token)
    assert response.status == 200, response.body
    return [item["name"] for item in body(response)]


# -- protect ------------------------------------------------------------------------------


def test_protect_with_a_role_answers_201_with_the_full_shape(svc: FakeService) -> None:
    response = protect(svc, {"name": "production", "deploy_access_levels": [{"access_level": 40}]})
    assert response.status == 201
    assert response.header("Content-Type") == "application/json"
    assert body(response) == {
        "name": "production",
        "deploy_access_levels": [
            {
                "id": body(response)["deploy_access_levels"][0]["id"],
                "access_level": 40,
                "access_level_description": "Maintainers",
                "user_id": None,
                "group_id": None,
                "group_inheritance_type": 0,
            }
        ],
        "required_approval_count": 0,
        "approval_rules": [],
    }
    assert names(svc) == ["production"]


@pytest.mark.parametrize(
    ("level", "description"),
    [(30, "Developers + Maintainers"), (40, "Maintainers"), (60, "Administrators")],
)
def test_role_descriptions(svc: FakeService, level: int, description: str) -> None:
    response = protect(svc, {"name": "env", "deploy_access_levels": [{"access_level": level}]})
    assert response.status == 201
    entry = body(response)["deploy_access_levels"][0]
    assert (entry["access_level"], entry["access_level_description"]) == (level, description)


def test_users_and_groups_are_described_by_name_and_keep_level_40(svc: FakeService) -> None:
    known = ids(svc)
    response = protect(
        svc,
        {
            "name": "production",
            "deploy_access_levels": [
                {"user_id": known["dora"]},
                {"group_id": known["partners"], "group_inheritance_type": 1},
                {"access_level": 30},
            ],
        },
    )
    assert response.status == 201, response.body
    levels = body(response)["deploy_access_levels"]
    assert [(e["user_id"], e["group_id"], e["access_level"]) for e in levels] == [
        (known["dora"], None, 40),
        (None, known["partners"], 40),
        (None, None, 30),
    ]
    assert [e["access_level_description"] for e in levels] == [
        "Dora Developer",
        "Partners",
        "Developers + Maintainers",
    ]
    assert [e["group_inheritance_type"] for e in levels] == [0, 1, 0]
    assert len({e["id"] for e in levels}) == 3


def test_users_inheriting_access_from_the_group_qualify(svc: FakeService) -> None:
    known = ids(svc)  # alice owns acme, pia is a developer of partners (project shared)
    payload = {
        "name": "production",
        "deploy_access_levels": [{"user_id": known["alice"]}, {"user_id": known["pia"]}],
    }
    response = protect(svc, payload)
    assert [e["user_id"] for e in body(response)["deploy_access_levels"]] == [
        known["alice"],
        known["pia"],
    ]


def test_unqualified_users_and_groups_are_dropped_as_the_real_service_does(
    svc: FakeService,
) -> None:
    known = ids(svc)
    payload = {
        "name": "production",
        "deploy_access_levels": [
            {"user_id": known["gus"]},  # guest: below Developer
            {"user_id": known["otto"]},  # no access at all
            {"user_id": known["root"]},  # an administrator without membership
            {"user_id": 999999},  # no such user
            {"group_id": known["acme"]},  # the project's own group: not shared
            {"group_id": known["oss"]},  # a share that has expired
            {"group_id": 999999},  # no such group
            {"user_id": known["maya"]},  # a maintainer: kept
        ],
    }
    response = protect(svc, payload)
    assert response.status == 201, response.body
    assert [e["user_id"] for e in body(response)["deploy_access_levels"]] == [known["maya"]]


def test_nothing_left_to_deploy_is_422_and_nothing_is_saved(svc: FakeService) -> None:
    known = ids(svc)
    response = protect(
        svc, {"name": "production", "deploy_access_levels": [{"user_id": known["otto"]}]}
    )
    assert response.status == 422
    assert body(response) == {
        "message": ["Deploy access levels is too short (minimum is 1 character)"]
    }
    assert names(svc) == []


def test_empty_deploy_list_and_blank_name_report_every_model_message(svc: FakeService) -> None:
    response = protect(svc, {"name": " ", "deploy_access_levels": [], "required_approval_count": 6})
    assert response.status == 422
    assert body(response) == {
        "message": [
            "Deploy access levels is too short (minimum is 1 character)",
            "Name can't be blank",
            "Required approval count must be less than or equal to 5",
        ]
    }


def test_negative_required_approval_count_is_422(svc: FakeService) -> None:
    response = protect(
        svc,
        {
            "name": "env",
            "deploy_access_levels": [{"access_level": 40}],
            "required_approval_count": -1,
        },
    )
    assert response.status == 422
    assert body(response) == {
        "message": ["Required approval count must be greater than or equal to 0"]
    }


def test_approval_rules_are_stored_and_shown(svc: FakeService) -> None:
    known = ids(svc)
    response = protect(
        svc,
        {
            "name": "production",
            "deploy_access_levels": [{"access_level": 40}],
            "required_approval_count": 1,
            "approval_rules": [
                {"group_id": known["partners"]},
                {"user_id": known["dora"], "required_approvals": 2},
                {"access_level": 40, "required_approvals": 3},
                {"user_id": known["otto"]},  # dropped: no access
            ],
        },
    )
    assert response.status == 201, response.body
    data = body(response)
    assert data["required_approval_count"] == 1
    rules = data["approval_rules"]
    assert [{k: v for k, v in r.items() if k != "id"} for r in rules] == [
        {
            "user_id": None,
            "group_id": known["partners"],
            "access_level": None,
            "access_level_description": "Partners",
            "required_approvals": 1,
            "group_inheritance_type": 0,
        },
        {
            "user_id": known["dora"],
            "group_id": None,
            "access_level": None,
            "access_level_description": "Dora Developer",
            "required_approvals": 2,
            "group_inheritance_type": 0,
        },
        {
            "user_id": None,
            "group_id": None,
            "access_level": 40,
            "access_level_description": "Maintainers",
            "required_approvals": 3,
            "group_inheritance_type": 0,
        },
    ]


def test_approval_rule_needing_no_approvals_is_422(svc: FakeService) -> None:
    response = protect(
        svc,
        {
            "name": "env",
            "deploy_access_levels": [{"access_level": 40}],
            "approval_rules": [{"access_level": 40, "required_approvals": 0}],
        },
    )
    assert response.status == 422
    assert body(response) == {
        "message": ["Approval rules required approvals must be greater than or equal to 1"]
    }


def test_a_protected_name_conflicts(svc: FakeService) -> None:
    payload = {"name": "production", "deploy_access_levels": [{"access_level": 40}]}
    assert protect(svc, payload).status == 201
    response = protect(svc, {**payload, "deploy_access_levels": [{"access_level": 30}]})
    assert response.status == 409
    assert body(response) == {"message": "Protected environment 'production' already exists"}
    only = call(svc, "GET", f"{PATH}/production", MAYA)
    assert body(only)["deploy_access_levels"][0]["access_level"] == 40


def test_form_encoded_arrays_of_hashes(svc: FakeService) -> None:
    response = call(
        svc,
        "POST",
        PATH,
        MAYA,
        data=[
            ("name", "staging"),
            ("deploy_access_levels[][access_level]", "30"),
            ("deploy_access_levels[][access_level]", "60"),
            ("required_approval_count", "1"),
        ],
    )
    assert response.status == 201, response.body
    data = body(response)
    assert [e["access_level"] for e in data["deploy_access_levels"]] == [30, 60]
    assert data["required_approval_count"] == 1


def test_form_keys_of_one_element_share_its_hash(svc: FakeService) -> None:
    # as in Rack: a new hash starts only when a key repeats, so these two keys are one element
    response = call(
        svc,
        "POST",
        PATH,
        MAYA,
        data=[
            ("name", "staging"),
            ("deploy_access_levels[][access_level]", "30"),
            ("deploy_access_levels[][user_id]", "1"),
        ],
    )
    assert response.status == 400
    assert body(response) == {
        "error": "deploy_access_levels[0][user_id], deploy_access_levels[0][access_level] are "
        "mutually exclusive"
    }


# -- parameter errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ({"deploy_access_levels": [{"access_level": 40}]}, "name is missing"),
        ({"name": "env"}, "deploy_access_levels is missing"),
        ({"name": "env", "deploy_access_levels": "maintainers"}, "deploy_access_levels is invalid"),
        ({"name": "env", "deploy_access_levels": [40]}, "deploy_access_levels is invalid"),
        (
            {"name": "env", "deploy_access_levels": [{"access_level": 20}]},
            "deploy_access_levels[0][access_level] does not have a valid value",
        ),
        (
            {"name": "env", "deploy_access_levels": [{"access_level": "x"}]},
            "deploy_access_levels[0][access_level] is invalid",
        ),
        (
            {"name": "env", "deploy_access_levels": [{"user_id": "me"}]},
            "deploy_access_levels[0][user_id] is invalid",
        ),
        (
            {"name": "env", "deploy_access_levels": [{"group_id": 1, "group_inheritance_type": 2}]},
            "deploy_access_levels[0][group_inheritance_type] does not have a valid value",
        ),
        (
            {"name": "env", "deploy_access_levels": [{}]},
            "deploy_access_levels[0][user_id], deploy_access_levels[0][group_id], "
            "deploy_access_levels[0][access_level] are missing, exactly one parameter must be "
            "provided",
        ),
        (
            {
                "name": "env",
                "deploy_access_levels": [{"access_level": 40}, {"user_id": 1, "group_id": 2}],
            },
            "deploy_access_levels[1][user_id], deploy_access_levels[1][group_id] are mutually "
            "exclusive",
        ),
        (
            {
                "name": "env",
                "deploy_access_levels": [{"access_level": 40}],
                "approval_rules": [{"required_approvals": 2}],
            },
            "approval_rules[0][access_level], approval_rules[0][user_id], "
            "approval_rules[0][group_id] are missing, at least one parameter must be provided",
        ),
        (
            {
                "name": "env",
                "deploy_access_levels": [{"access_level": 40}],
                "required_approval_count": "two",
            },
            "required_approval_count is invalid",
        ),
        (
            {"name": "\ud800", "deploy_access_levels": [{"access_level": 40}]},
            "The request body is not valid JSON",
        ),
    ],
)
def test_parameter_errors(svc: FakeService, payload: dict[str, Any], error: str) -> None:
    response = protect(svc, payload)
    assert response.status == 400
    assert body(response) == {"error": error}
    assert names(svc) == []


def test_exactly_one_errors_of_several_elements_are_joined(svc: FakeService) -> None:
    response = protect(
        svc,
        {"name": "env", "deploy_access_levels": [{"access_level": 40, "user_id": 3}, {}]},
    )
    assert body(response) == {
        "error": "deploy_access_levels[0][user_id], deploy_access_levels[0][access_level] are "
        "mutually exclusive, deploy_access_levels[1][user_id], deploy_access_levels[1][group_id], "
        "deploy_access_levels[1][access_level] are missing, exactly one parameter must be "
        "provided"
    }


def test_null_entries_count_as_absent(svc: FakeService) -> None:
    response = protect(
        svc,
        {"name": "env", "deploy_access_levels": [{"access_level": 40, "user_id": None}]},
    )
    assert response.status == 201, response.body


# -- get, list, unprotect -----------------------------------------------------------------


def test_list_is_ordered_by_name_and_paginated(svc: FakeService) -> None:
    for name in ("staging", "production", "review/app", "canary"):
        payload = {"name": name, "deploy_access_levels": [{"access_level": 40}]}
        assert protect(svc, payload).status == 201
    assert names(svc) == ["canary", "production", "review/app", "staging"]
    response = call(svc, "GET", PATH, MAYA, query={"per_page": 3, "page": 2})
    assert response.status == 200
    assert [item["name"] for item in body(response)] == ["staging"]
    assert response.header("X-Total") == "4"
    assert response.header("X-Total-Pages") == "2"
    assert response.header("X-Page") == "2"
    assert response.header("X-Prev-Page") == "1"
    assert response.header("X-Next-Page") == ""
    assert 'rel="prev"' in (response.header("Link") or "")


def test_list_is_empty_for_a_project_without_any(svc: FakeService) -> None:
    response = call(svc, "GET", PATH, MAYA)
    assert (response.status, body(response)) == (200, [])
    assert response.header("X-Total") == "0"


def test_list_rejects_bad_pagination(svc: FakeService) -> None:
    response = call(svc, "GET", PATH, MAYA, query={"per_page": 0})
    assert (response.status, body(response)) == (400, {"error": "per_page has a value not allowed"})


def test_get_by_encoded_name(svc: FakeService) -> None:
    payload = {"name": "review/app", "deploy_access_levels": [{"access_level": 30}]}
    created = body(protect(svc, payload))
    response = call(svc, "GET", f"{PATH}/review%2Fapp", MAYA)
    assert response.status == 200
    assert body(response) == created


def test_names_are_matched_exactly(svc: FakeService) -> None:
    assert (
        protect(svc, {"name": "Prod", "deploy_access_levels": [{"access_level": 40}]}).status == 201
    )
    response = call(svc, "GET", f"{PATH}/prod", MAYA)
    assert (response.status, body(response)) == (404, {"message": "404 Not found"})


def test_unprotect_answers_204_and_removes(svc: FakeService) -> None:
    protect(svc, {"name": "production", "deploy_access_levels": [{"access_level": 40}]})
    protect(svc, {"name": "staging", "deploy_access_levels": [{"access_level": 30}]})
    response = call(svc, "DELETE", f"{PATH}/production", MAYA)
    assert (response.status, response.body) == (204, b"")
    assert names(svc) == ["staging"]
    again = call(svc, "DELETE", f"{PATH}/production", MAYA)
    assert (again.status, body(again)) == (404, {"message": "404 Not found"})
    gone = call(svc, "GET", f"{PATH}/production", MAYA)
    assert gone.status == 404
    # the name can be protected again
    recreated = protect(svc, {"name": "production", "deploy_access_levels": [{"access_level": 60}]})
    assert recreated.status == 201


def test_unknown_project_is_404(svc: FakeService) -> None:
    for method, path in (
        ("GET", "/projects/acme%2Fnope/protected_environments"),
        ("GET", "/projects/999999/protected_environments/x"),
        ("DELETE", "/projects/999999/protected_environments/x"),
    ):
        response = call(svc, method, path)
        assert (response.status, body(response)) == (404, {"message": "404 Project Not Found"})


def test_unencoded_slash_in_a_name_matches_no_route(svc: FakeService) -> None:
    response = call(svc, "GET", f"{PATH}/review/app", MAYA)
    assert (response.status, body(response)) == (404, {"error": "404 Not Found"})


def test_wrong_method_is_405(svc: FakeService) -> None:
    response = call(svc, "PATCH", PATH, MAYA)
    assert response.status == 405
    assert body(response) == {"error": "405 Not Allowed"}


# -- access ---------------------------------------------------------------------------------


def test_anonymous_callers_get_401(svc: FakeService) -> None:
    for method, path in (
        ("GET", f"/projects/{LEGACY}/protected_environments"),
        ("GET", f"/projects/{LEGACY}/protected_environments/production"),
        ("DELETE", f"/projects/{LEGACY}/protected_environments/production"),
    ):
        response = call(svc, method, path, None)
        assert (response.status, body(response)) == (401, {"message": "401 Unauthorized"})


@pytest.mark.parametrize("token", [DORA, GUS])
def test_below_maintainer_is_403_everywhere(svc: FakeService, token: str) -> None:
    maintained = protect(
        svc, {"name": "production", "deploy_access_levels": [{"access_level": 40}]}
    )
    assert maintained.status == 201
    for method, path, payload in (
        ("GET", PATH, None),
        ("GET", f"{PATH}/production", None),
        ("POST", PATH, {"name": "x", "deploy_access_levels": [{"access_level": 40}]}),
        ("DELETE", f"{PATH}/production", None),
    ):
        response = call(svc, method, path, token, json_body=payload)
        assert (response.status, body(response)) == (403, {"message": "403 Forbidden"})
    assert names(svc) == ["production"]


def test_non_members_of_a_private_project_get_404(svc: FakeService) -> None:
    for token in (OTTO, CAROL):
        response = call(svc, "GET", PATH, token)
        assert (response.status, body(response)) == (404, {"message": "404 Project Not Found"})


def test_visible_public_project_without_role_is_403(svc: FakeService) -> None:
    response = call(svc, "GET", f"/projects/{LEGACY}/protected_environments", OTTO)
    assert (response.status, body(response)) == (403, {"message": "403 Forbidden"})


def test_owners_and_administrators_may_manage(svc: FakeService) -> None:
    for token, name in ((ALICE, "a"), (ROOT, "b")):
        payload = {"name": name, "deploy_access_levels": [{"access_level": 40}]}
        assert protect(svc, payload, token).status == 201
    assert names(svc, ALICE) == ["a", "b"]


def test_read_api_token_may_read_but_not_write(svc: FakeService) -> None:
    # bob is a reporter: his reads are refused for the role, his writes for the scope
    read = call(svc, "GET", f"/projects/{LEGACY}/protected_environments", BOB)
    assert (read.status, body(read)) == (403, {"message": "403 Forbidden"})
    write = call(
        svc,
        "POST",
        f"/projects/{LEGACY}/protected_environments",
        BOB,
        json_body={"name": "x", "deploy_access_levels": [{"access_level": 40}]},
    )
    assert write.status == 403
    assert body(write)["error"] == "insufficient_scope"


def test_sudo_acts_with_the_impersonated_role(svc: FakeService) -> None:
    response = call(svc, "GET", PATH, ROOT, headers={"Sudo": "dora"})
    assert (response.status, body(response)) == (403, {"message": "403 Forbidden"})
    response = call(svc, "GET", PATH, ROOT, headers={"Sudo": "maya"})
    assert response.status == 200


# -- state and records ------------------------------------------------------------------------


def test_entries_of_deleted_users_disappear(svc: FakeService) -> None:
    known = ids(svc)
    payload = {
        "name": "production",
        "deploy_access_levels": [{"access_level": 40}, {"user_id": known["dora"]}],
    }
    assert protect(svc, payload).status == 201
    deleted = call(svc, "DELETE", f"/users/{known['dora']}", ROOT, query={"hard_delete": "true"})
    assert deleted.status == 204, deleted.body
    levels = body(call(svc, "GET", f"{PATH}/production", MAYA))["deploy_access_levels"]
    assert [e["access_level_description"] for e in levels] == ["Maintainers"]


def test_environments_belong_to_their_project(svc: FakeService) -> None:
    protect(svc, {"name": "production", "deploy_access_levels": [{"access_level": 40}]})
    legacy = call(svc, "GET", f"/projects/{LEGACY}/protected_environments", ROOT)
    assert [item["name"] for item in body(legacy)] == ["production", "review/*"]
    by_id = call(svc, "GET", f"/projects/{LEGACY}/protected_environments/production", ROOT)
    assert body(by_id)["required_approval_count"] == 2


def test_snapshot_and_restore_keep_environments(svc: FakeService) -> None:
    protect(svc, {"name": "production", "deploy_access_levels": [{"access_level": 40}]})
    snapshot = svc.snapshot()
    call(svc, "DELETE", f"{PATH}/production", MAYA)
    assert names(svc) == []
    svc.restore(snapshot)
    assert names(svc) == ["production"]
    assert (
        protect(svc, {"name": "next", "deploy_access_levels": [{"access_level": 40}]}).status == 201
    )


def test_services_do_not_share_state() -> None:
    first, second = new_service(), new_service()
    protect(first, {"name": "production", "deploy_access_levels": [{"access_level": 40}]})
    assert names(second) == []


# -- scenario --------------------------------------------------------------------------------


def test_scenario_key_creates_environments(svc: FakeService) -> None:
    known = ids(svc)
    response = call(svc, "GET", f"/projects/{LEGACY}/protected_environments/production", ROOT)
    data = body(response)
    assert [
        (e["access_level"], e["user_id"], e["group_id"]) for e in data["deploy_access_levels"]
    ] == [
        (40, None, None),
        (40, known["alice"], None),
        (40, None, known["partners"]),
    ]
    assert data["required_approval_count"] == 2
    assert [(r["user_id"], r["required_approvals"]) for r in data["approval_rules"]] == [
        (known["alice"], 2)
    ]


def _scenario(entries: list[dict[str, Any]], **project: Any) -> dict[str, Any]:
    return {
        "users": [{"username": "ann", "tokens": [{"token": "ann-token"}]}, {"username": "ned"}],
        "groups": [{"path": "team", "name": "Team"}],
        "projects": [
            {
                "path": "ann/app",
                "members": [{"user": "ned", "role": "reporter"}],
                "protected_environments": entries,
                **project,
            }
        ],
    }


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (
            [{"name": "p", "deploy_access_levels": [{"user": "ned"}]}],
            "needs at least the Developer role",
        ),
        ([{"name": "p", "deploy_access_levels": [{"group": "team"}]}], "not shared with 'team'"),
        ([{"name": "p", "deploy_access_levels": [{"user": "zed"}]}], "unknown user 'zed'"),
        ([{"name": "p", "deploy_access_levels": [{"group": "nope"}]}], "unknown group 'nope'"),
        (
            [{"name": "p", "deploy_access_levels": [{"access_level": 20}]}],
            "must be one of 30, 40, 60",
        ),
        ([{"name": "p", "deploy_access_levels": []}], "at least one entry"),
        ([{"deploy_access_levels": [{"access_level": 40}]}], "name is required"),
        (
            [{"name": "p", "deploy_access_levels": [{"access_level": 40, "user": "ann"}]}],
            "exactly one of access_level, user, group",
        ),
        (
            [
                {
                    "name": "p",
                    "deploy_access_levels": [{"access_level": 40}],
                    "required_approval_count": 9,
                }
            ],
            "",
        ),
    ],
)
def test_scenario_errors_are_reported(entries: list[dict[str, Any]], message: str) -> None:
    from fakeservice.scenarios.loader import ScenarioError

    with pytest.raises(ScenarioError) as raised:
        FakeService(_scenario(entries))
    assert "protected_environments" in str(raised.value)
    assert message in str(raised.value)


def test_scenario_with_shared_group_and_replacement() -> None:
    entries = [
        {"name": "p", "deploy_access_levels": [{"access_level": "developer"}]},
        {"name": "p", "deploy_access_levels": [{"group": "team"}, {"user": "ann"}]},
    ]
    svc = FakeService(_scenario(entries, shared_with=[{"group": "team", "role": "developer"}]))
    response = call(svc, "GET", "/projects/ann%2Fapp/protected_environments", "ann-token")
    data = body(response)
    assert [item["name"] for item in data] == ["p"]
    assert [e["access_level_description"] for e in data[0]["deploy_access_levels"]] == [
        "Team",
        "ann",
    ]
    assert not svc.server_errors


def test_unprotect_honours_if_unmodified_since(svc: FakeService) -> None:
    payload = {"name": "production", "deploy_access_levels": [{"access_level": 40}]}
    protect(svc, payload)
    path = f"{PATH}/production"
    before = {"If-Unmodified-Since": "Wed, 31 Dec 2025 09:00:00 GMT"}
    refused = call(svc, "DELETE", path, MAYA, headers=before)
    assert (refused.status, body(refused)) == (412, {"message": "412 Precondition Failed"})
    assert names(svc) == ["production"]
    same_second = {"If-Unmodified-Since": "Thu, 01 Jan 2026 09:00:00 GMT"}
    assert call(svc, "DELETE", path, MAYA, headers=same_second).status == 204
    protect(svc, payload)
    garbage = {"If-Unmodified-Since": "not a date"}
    assert call(svc, "DELETE", path, MAYA, headers=garbage).status == 204
