"""``/features``: administrators only, gates set as the real service sets them (global
values clear the other gates, percentages, actors by flipper id, opt-outs), its error
messages with nothing changed, python-gitlab's ``gl.features`` (which deletes through
``/features//name``), the ``features`` scenario key, and the remote-import gate that
reads the flags."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.admin import refused_to_non_admins
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.features.models import enabled
from fakeservice.scenarios.loader import ScenarioError

REMOTE = "import_project_from_remote_file"
DEFINITION = {
    "name": REMOTE,
    "introduced_by_url": None,
    "rollout_issue_url": None,
    "milestone": "14.10",
    "log_state_changes": None,
    "type": "development",
    "group": "group::import",
    "default_enabled": False,
}


def set_flag(svc: FakeService, name: str, **params: Any) -> Any:
    return call(svc, "POST", f"/features/{name}", json_body=params)


def listed(svc: FakeService) -> Any:
    return body(call(svc, "GET", "/features"))


@refused_to_non_admins
def test_administrators_only(svc: FakeService, token: str | None, status: int, answer: Any) -> None:
    for method, path in (
        ("GET", "/features"),
        ("GET", "/features/definitions"),
        ("POST", "/features/x?value=true"),
        ("DELETE", "/features/x"),
    ):
        response = call(svc, method, path, token)
        assert (response.status, body(response)) == (status, answer)
    assert listed(svc) == []


def test_enable_globally_then_list_by_name(svc: FakeService) -> None:
    made = set_flag(svc, REMOTE, value=True)
    assert made.status == 201
    assert body(made) == {
        "name": REMOTE,
        "state": "on",
        "gates": [{"key": "boolean", "value": True}],
        "definition": DEFINITION,
    }
    set_flag(svc, "zeta", value=False)
    set_flag(svc, "alpha", value=25)
    assert [(f["name"], f["state"]) for f in listed(svc)] == [
        ("alpha", "conditional"),
        (REMOTE, "on"),
        ("zeta", "off"),
    ]
    assert body(call(svc, "GET", "/features/definitions")) == [DEFINITION]


def test_percentages_and_actors_make_a_conditional_flag(svc: FakeService) -> None:
    set_flag(svc, "beta", value=30, key="percentage_of_actors")
    set_flag(svc, "beta", value="12.5")
    answer = set_flag(svc, "beta", value=True, user="alice,bob", project="acme/website")
    set_flag(svc, "beta", value=True, group="acme", namespace="alice")
    set_flag(svc, "beta", value=True, repository="acme/website.wiki.git", feature_group="team")
    assert answer.status == 201
    assert body(call(svc, "GET", "/features"))[0] == {
        "name": "beta",
        "state": "conditional",
        "gates": [
            {"key": "boolean", "value": False},
            {
                "key": "actors",
                "value": [
                    "User:2",
                    "User:3",
                    "Project:1",
                    "Group:46",
                    "Namespaces::UserNamespace:2",
                    "Repository:acme/website.wiki",
                ],
            },
            {"key": "percentage_of_actors", "value": 30},
            {"key": "percentage_of_time", "value": 12.5},
            {"key": "groups", "value": ["team"]},
        ],
        "definition": None,
    }
    set_flag(svc, "beta", value=False, user="bob", feature_group="team")
    gates = {g["key"]: g["value"] for g in listed(svc)[0]["gates"]}
    assert "groups" not in gates and "User:3" not in gates["actors"]
    on = set_flag(svc, "beta", value=100)
    assert body(on)["gates"] == [{"key": "boolean", "value": True}]
    off = set_flag(svc, "beta", value="0")
    assert (body(off)["state"], body(off)["gates"]) == ("off", [{"key": "boolean", "value": False}])


def test_namespace_ids_follow_the_records(svc: FakeService) -> None:
    group = body(call(svc, "GET", "/groups/acme"))
    user_ns = body(call(svc, "GET", "/namespaces/alice"))
    made = set_flag(svc, "ns", value=True, namespace="acme,alice")
    assert body(made)["gates"][1]["value"] == [
        f"Group:{group['id']}",
        f"Namespaces::UserNamespace:{user_ns['id']}",
    ]


@pytest.mark.parametrize(
    ("params", "answer"),
    [
        ({}, {"error": "value is missing"}),
        (
            {"value": 1, "key": "percentage_of_actors", "user": "alice"},
            {"error": "key, user are mutually exclusive"},
        ),
        ({"value": "abc"}, {"message": "400 Bad request - Cannot set 'f' to \"abc\""}),
        (
            {"value": "50", "key": "other"},
            {"message": '400 Bad request - Cannot set \'f\' ("other") to "50"'},
        ),
        (
            {"value": "half", "key": "percentage_of_actors"},
            {"message": "400 Bad request - Not a percentage"},
        ),
        (
            {"value": "150"},
            {
                "message": "400 Bad request - value must be a positive number less than or "
                "equal to 100, but was 150"
            },
        ),
        (
            {"value": True, "user": "alice,nobody"},
            {"message": "400 Bad request - nobody is not found!"},
        ),
        (
            {"value": True, "project": "acme/none"},
            {"message": "400 Bad request - acme/none is not found!"},
        ),
        ({"value": True, "group": "alice"}, {"message": "400 Bad request - alice is not found!"}),
        (
            {"value": "50", "user": "alice"},
            {"message": "400 Bad request - Cannot set 'f' to \"50\" for User:2"},
        ),
        (
            {"value": "remove_opt_out", "user": "alice"},
            {"message": "400 Bad request - No opt-out exists for @alice"},
        ),
    ],
)
def test_refusals_change_nothing(svc: FakeService, params: dict[str, Any], answer: Any) -> None:
    set_flag(svc, "f", value=10)
    before = listed(svc)
    response = set_flag(svc, "f", **params)
    assert (response.status, body(response)) == (400, answer)
    assert listed(svc) == before


def test_licensed_names_need_force(svc: FakeService) -> None:
    refused = set_flag(svc, "epics", value=True)
    assert body(refused) == {
        "message": "400 Bad request - The 'epics' is a licensed feature name, and thus it "
        "cannot be used as a feature flag name. Use `rails console` to set this feature "
        "flag state."
    }
    assert listed(svc) == []
    assert set_flag(svc, "epics", value=True, force=True).status == 201


def test_opt_out_wins_over_enabled(svc: FakeService) -> None:
    set_flag(svc, "o", value=True)
    opted = set_flag(svc, "o", value="opt_out", user="alice")
    assert body(opted)["gates"] == [
        {"key": "boolean", "value": True},
        {"key": "actors", "value": ["User:2:opt_out"]},
    ]
    assert not enabled(svc.store, "o", ["User:2"]) and enabled(svc.store, "o", ["User:3"])
    blocked = set_flag(svc, "o", value=True, user="alice")
    assert body(blocked) == {
        "message": "400 Bad request - Opt-out exists for @alice - remove opt-out before enabling"
    }
    set_flag(svc, "o", value="remove_opt_out", user="alice")
    assert enabled(svc.store, "o", ["User:2"])


def test_delete_answers_204_whether_stored_or_not(svc: FakeService) -> None:
    set_flag(svc, REMOTE, value=True)
    assert enabled(svc.store, REMOTE)
    for _ in range(2):
        response = call(svc, "DELETE", f"/features/{REMOTE}")
        assert (response.status, response.body) == (204, b"")
    assert listed(svc) == [] and not enabled(svc.store, REMOTE)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(low=st.integers(1, 99), high=st.integers(1, 99), actor=st.integers(1, 10_000))
def test_percentage_of_actors_only_grows(svc: FakeService, low: int, high: int, actor: int) -> None:
    """An actor in the rollout at a percentage stays in it at any higher one."""
    low, high = sorted((low, high))
    set_flag(svc, "rollout", value=low, key="percentage_of_actors")
    at_low = enabled(svc.store, "rollout", [f"User:{actor}"])
    set_flag(svc, "rollout", value=high, key="percentage_of_actors")
    assert not at_low or enabled(svc.store, "rollout", [f"User:{actor}"])
    assert not enabled(svc.store, "rollout")


def test_remote_import_reads_the_flag_per_caller(svc: FakeService) -> None:
    payload = {"url": "ftp://nowhere/x.tar.gz", "path": "remote"}
    path = "/projects/remote-import"
    assert call(svc, "POST", path, "alice-token", json_body=payload).status == 404
    set_flag(svc, REMOTE, value=True, user="alice")
    assert call(svc, "POST", path, "alice-token", json_body=payload).status != 404
    assert call(svc, "POST", path, "carol-token", json_body=payload).status == 404


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    feature = gl.features.set(REMOTE, True)
    assert (feature.name, feature.state, feature.definition) == (REMOTE, "on", DEFINITION)
    gl.features.set("beta", True, user="alice")
    with pytest.raises(gitlab.GitlabSetError, match="Cannot set 'beta' to"):
        gl.features.set("beta", "abc")
    assert [f.name for f in gl.features.list(get_all=True)] == ["beta", REMOTE]
    gl.features.delete(REMOTE)
    assert [f.name for f in gl.features.list(get_all=True)] == ["beta"]
    assert not enabled(svc.store, REMOTE)


def test_scenario_key_seeds_flags() -> None:
    svc = FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"name": "t", "token": ROOT}]},
                {"username": "ann"},
            ],
            "features": {
                REMOTE: True,
                "half": 50,
                "beta": {"value": 30, "key": "percentage_of_actors"},
                "early": {"value": True, "user": "ann"},
            },
        }
    )
    flags = {f["name"]: f["gates"] for f in listed(svc)}
    assert flags == {
        "beta": [{"key": "boolean", "value": False}, {"key": "percentage_of_actors", "value": 30}],
        "early": [{"key": "boolean", "value": False}, {"key": "actors", "value": ["User:2"]}],
        "half": [{"key": "boolean", "value": False}, {"key": "percentage_of_time", "value": 50}],
        REMOTE: [{"key": "boolean", "value": True}],
    }
    with pytest.raises(
        ScenarioError, match=r"features\.early: 400 Bad request - nobody is not found!"
    ):
        FakeService({"features": {"early": {"value": True, "user": "nobody"}}})
