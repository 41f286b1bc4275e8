"""Issue 12, item 3: CI/CD variables at project, group and instance level: CRUD with the
model's rules (key format, uniqueness per scope, masking), exact round-trips, role rules,
pagination, scenario keys, and the values pipelines see (rules: if)."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService
from fakeservice.ci.variables_models import MASKABLE
from fakeservice.scenarios.check import check

CI = """\
always:
  script: echo
from-variables:
  script: echo
  rules:
    - if: $FROM_PROJECT == "p" && $FROM_GROUP == "g" && $FROM_INSTANCE == "i"
secret:
  script: echo
  rules:
    - if: $SECRET
"""
SCENARIO: dict[str, Any] = {
    "users": [
        {"username": "root", "admin": True, "tokens": [{"token": ROOT}]},
        {"username": "maint", "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "tokens": [{"token": "dev-token"}]},
    ],
    "ci_variables": [{"key": "FROM_INSTANCE", "value": "i"}],
    "groups": [
        {
            "path": "acme",
            "visibility": "public",
            "members": [
                {"user": "maint", "role": "maintainer"},
                {"user": "dev", "role": "developer"},
            ],
            "variables": [
                {"key": "FROM_GROUP", "value": "g"},
                {"key": "FROM_PROJECT", "value": "group"},
            ],
        }
    ],
    "projects": [
        {
            "path": "acme/app",
            "visibility": "public",
            "files": {".gitlab-ci.yml": CI},
            "branches": [{"name": "topic"}],
            "variables": [
                {"key": "FROM_PROJECT", "value": "p"},
                {"key": "SECRET", "value": "s3cr3t-value", "protected": True, "masked": True},
            ],
        }
    ],
}
APP = "/projects/acme%2Fapp"
LEVELS = [f"{APP}/variables", "/groups/acme/variables", "/admin/ci/variables"]


@pytest.fixture
def svc() -> FakeService:
    return stamp(SCENARIO, "ci-variables")


@pytest.mark.parametrize("base", LEVELS)
def test_create_get_list_update_delete_round_trip(svc: FakeService, base: str) -> None:
    written = {
        "key": "DEPLOY_KEY",
        "value": "multi\nline $value",
        "variable_type": "file",
        "protected": True,
        "masked": False,
        "raw": True,
        "description": "the key",
    }
    if not base.startswith("/admin"):
        written["environment_scope"] = "production"
    created = call(svc, "POST", base, json_body=written)
    assert created.status == 201, created.body
    expected = {**written, "hidden": False}
    assert {k: created.json()[k] for k in expected} == expected
    scope = "?filter[environment_scope]=production" if "environment_scope" in written else ""
    assert call(svc, "GET", f"{base}/DEPLOY_KEY{scope}").json() == created.json()
    assert created.json() in call(svc, "GET", base).json()
    updated = call(
        svc, "PUT", f"{base}/DEPLOY_KEY{scope}", json_body={"value": "new", "raw": False}
    )
    assert (updated.json()["value"], updated.json()["raw"], updated.json()["protected"]) == (
        "new",
        False,
        True,
    )
    assert call(svc, "DELETE", f"{base}/DEPLOY_KEY{scope}").status == 204
    missing = call(svc, "GET", f"{base}/DEPLOY_KEY{scope}")
    assert (missing.status, missing.json()) == (404, {"message": "404 Variable Not Found"})


@pytest.mark.parametrize(
    ("body", "answer"),
    [
        (
            {"key": "bad-key", "value": "x"},
            {"message": {"key": ["can contain only letters, digits and '_'."]}},
        ),
        (
            {"key": "FROM_PROJECT", "value": "x"},
            {"message": {"key": ["(FROM_PROJECT) has already been taken"]}},
        ),
        ({"key": "M", "value": "short", "masked": True}, {"message": {"value": ["is invalid"]}}),
        (
            {"key": "M", "value": "has space 123", "masked": True},
            {"message": {"value": ["is invalid"]}},
        ),
        ({"key": "M"}, {"error": "value is missing"}),
        ({"key": "M", "value": None}, {"message": {"value": ["can't be blank"]}}),
        (
            {"key": "M", "value": "x", "variable_type": "dir"},
            {"error": "variable_type does not have a valid value"},
        ),
    ],
)
def test_invalid_variables_are_refused(svc: FakeService, body: dict[str, Any], answer: Any) -> None:
    before = call(svc, "GET", f"{APP}/variables").json()
    response = call(svc, "POST", f"{APP}/variables", json_body=body)
    assert (response.status, response.json()) == (400, answer)
    assert call(svc, "GET", f"{APP}/variables").json() == before


def test_the_same_key_in_another_environment_scope(svc: FakeService) -> None:
    body = {"key": "FROM_PROJECT", "value": "prod", "environment_scope": "production"}
    assert call(svc, "POST", f"{APP}/variables", json_body=body).status == 201
    assert [v["environment_scope"] for v in call(svc, "GET", f"{APP}/variables").json()] == [
        "*",
        "*",
        "production",
    ]


@settings(max_examples=60, deadline=None)
@given(value=st.text(max_size=20))
def test_the_masking_rule(value: str) -> None:
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+=/@:.~-")
    assert bool(MASKABLE.match(value)) == (len(value) >= 8 and set(value) <= allowed)


def test_roles(svc: FakeService) -> None:
    assert call(svc, "GET", f"{APP}/variables", "dev-token").status == 403
    assert call(svc, "GET", f"{APP}/variables", "maint-token").status == 200
    assert call(svc, "GET", "/groups/acme/variables", "dev-token").status == 403
    assert call(svc, "GET", "/admin/ci/variables", "maint-token").status == 403
    assert call(svc, "GET", "/admin/ci/variables", None).status == 401


def test_lists_are_paginated(svc: FakeService) -> None:
    for index in range(3):
        call(svc, "POST", "/admin/ci/variables", json_body={"key": f"K{index}", "value": "v"})
    page = call(svc, "GET", "/admin/ci/variables?per_page=2&page=2")
    assert [v["key"] for v in page.json()] == ["K1", "K2"]
    assert (page.header("X-Total"), page.header("X-Total-Pages")) == ("4", "2")


def test_pipelines_see_instance_group_and_project_variables(svc: FakeService) -> None:
    def names(ref: str, **extra: Any) -> list[str]:
        created = call(svc, "POST", f"{APP}/pipeline", json_body={"ref": ref, **extra}).json()
        return sorted(
            j["name"] for j in call(svc, "GET", f"{APP}/pipelines/{created['id']}/jobs").json()
        )

    assert names("main") == ["always", "from-variables", "secret"]  # main is protected
    assert names("topic") == ["always", "from-variables"]  # protected variables stay out
    call(svc, "POST", f"{APP}/protected_branches", json_body={"name": "topic"})
    assert names("topic") == ["always", "from-variables", "secret"]
    given = [{"key": "FROM_PROJECT", "value": "x"}]
    assert names("main", variables=given) == ["always", "secret"]  # pipeline variables win


def test_python_gitlab_at_every_level(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    project = gl.projects.get("acme/app")
    project.variables.create({"key": "TOKEN", "value": "abcdefgh1", "masked": True})
    variable = project.variables.get("TOKEN")
    assert (variable.value, variable.masked, variable.environment_scope) == ("abcdefgh1", True, "*")
    variable.value = "changed-value"
    variable.save()
    assert project.variables.get("TOKEN").value == "changed-value"
    assert sorted(v.key for v in project.variables.list(get_all=True)) == [
        "FROM_PROJECT",
        "SECRET",
        "TOKEN",
    ]
    project.variables.delete("TOKEN")
    group = gl.groups.get("acme")
    assert [v.key for v in group.variables.list(get_all=True)] == ["FROM_GROUP", "FROM_PROJECT"]
    gl.variables.create({"key": "GLOBAL", "value": "1", "variable_type": "file"})
    assert gl.variables.get("GLOBAL").variable_type == "file"
    with pytest.raises(gitlab.GitlabCreateError) as error:
        project.variables.create({"key": "bad key", "value": "x"})
    assert error.value.response_code == 400


def test_scenario_keys_are_checked() -> None:
    problems = check({"ci_variables": [{"key": "A", "value": "short", "masked": True}]})
    assert [p.where for p in problems] == ["ci_variables[0]"]
    assert "value is invalid" in problems[0].message
    problems = check({"ci_variables": [{"value": "x"}]})
    assert problems and "key" in problems[0].message
