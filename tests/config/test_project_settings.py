"""Project settings: every attribute the create and edit endpoints accept comes back from
``GET /projects/:id`` (and the lists) as written; older ``*_enabled`` booleans and their
access levels agree; model validation answers the service's messages and changes
nothing; plan- and role-gated attributes are ignored as the service ignores them."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, assume, given, settings
from support.calls import body, call_as
from support.records import user_record

from fakeservice import FakeService
from fakeservice.instance.models import instance
from fakeservice.projects import settings as project_settings

from .strategies import setting_changes

SKIPPED = {"container_expiration_policy_attributes", "repository_storage", "visibility"}
ROUND_TRIPPED = [s for s in project_settings.SETTINGS if s.name not in SKIPPED]


def _get(svc: FakeService, key: str = "infra%2Fsite", who: str = "root") -> dict[str, Any]:
    response = call_as(svc, "GET", f"/projects/{key}", who)
    assert response.status == 200, response.body
    return body(response)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=setting_changes(project_settings.TABLE, [s.name for s in ROUND_TRIPPED], 12))
def test_every_setting_round_trips(svc: FakeService, changes: dict[str, Any]) -> None:
    project = svc.store.tables["projects"].by("full_path", "infra/site")
    assume(not project_settings.errors_of(project, changes))
    before = _get(svc)
    response = call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=changes)
    assert response.status == 200, response.body
    after = _get(svc)
    assert body(response) == after
    expected = dict(changes)
    if "topics" in expected:
        expected["topics"] = project_settings.clean_topics(expected["topics"])
    for name, value in expected.items():
        assert after[name] == value, name
    untouched = {k for k in before if k not in expected} - {"updated_at", "tag_list"}
    untouched -= {a.name for a in project_settings.ALIASES}
    assert {k: after[k] for k in untouched} == {k: before[k] for k in untouched}
    for alias, target in project_settings.ENABLED_VIEWS.items():
        assert after[alias] == (after[target] != "disabled")
    assert after["emails_disabled"] is not after["emails_enabled"]
    assert after["tag_list"] == after["topics"]
    listed = call_as(svc, "GET", "/projects", "root", search="site", simple="false")
    [entry] = [p for p in body(listed) if p["id"] == after["id"]]
    assert {k: entry[k] for k in expected} == {k: after[k] for k in expected}


def test_create_takes_every_setting(svc: FakeService) -> None:
    written = {
        "name": "Configured",
        "namespace_id": "infra",
        "visibility": "internal",
        "merge_method": "rebase_merge",
        "squash_option": "always",
        "only_allow_merge_if_pipeline_succeeds": True,
        "only_allow_merge_if_all_discussions_are_resolved": True,
        "remove_source_branch_after_merge": False,
        "merge_commit_template": "Merge %{source_branch}",
        "squash_commit_template": "%{title}",
        "suggestion_commit_message": "Apply %{suggestions_count} suggestions",
        "issue_branch_template": "%{id}-%{title}",
        "ci_config_path": "ci/pipeline.yml",
        "build_timeout": 7200,
        "auto_cancel_pending_pipelines": "disabled",
        "ci_default_git_depth": 50,
        "wiki_access_level": "disabled",
        "topics": ["infra", "terraform"],
        "issues_template": "Describe the bug",
        "merge_requests_template": "## What",
        "autoclose_referenced_issues": False,
        "printing_merge_request_link_enabled": False,
        "keep_latest_artifact": False,
        "container_registry_enabled": False,
        "packages_enabled": False,
    }
    response = call_as(svc, "POST", "/projects", "olga", body=written)
    assert response.status == 201, response.body
    created = body(response)
    got = _get(svc, str(created["id"]), "olga")
    assert got == {**created, "permissions": got["permissions"]}
    for name, value in written.items():
        if name in ("name", "namespace_id", "container_registry_enabled", "packages_enabled"):
            continue
        assert got[name] == value, name
    assert got["wiki_enabled"] is False
    assert (got["container_registry_enabled"], got["container_registry_access_level"]) == (
        False,
        "disabled",
    )
    assert (got["packages_enabled"], got["package_registry_access_level"]) == (False, "disabled")
    assert got["path_with_namespace"] == "infra/configured"


@pytest.mark.parametrize(
    ("older", "value", "level_name", "level"),
    [
        ("issues_enabled", False, "issues_access_level", "disabled"),
        ("merge_requests_enabled", False, "merge_requests_access_level", "disabled"),
        ("wiki_enabled", False, "wiki_access_level", "disabled"),
        ("jobs_enabled", False, "builds_access_level", "disabled"),
        ("snippets_enabled", False, "snippets_access_level", "disabled"),
        ("container_registry_enabled", False, "container_registry_access_level", "disabled"),
        ("issues_enabled", True, "issues_access_level", "enabled"),
    ],
)
def test_older_booleans_write_the_access_level(
    svc: FakeService, older: str, value: bool, level_name: str, level: str
) -> None:
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body={level_name: "private"})
    response = call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body={older: value})
    assert response.status == 200
    got = _get(svc)
    assert (got[older], got[level_name]) == (value, level)


def test_access_level_wins_over_the_older_boolean(svc: FakeService) -> None:
    both = {"issues_enabled": False, "issues_access_level": "private"}
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=both)
    got = _get(svc)
    assert (got["issues_enabled"], got["issues_access_level"]) == (True, "private")


def test_emails_and_tag_list_aliases(svc: FakeService) -> None:
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body={"emails_disabled": True})
    got = _get(svc)
    assert (got["emails_disabled"], got["emails_enabled"]) == (True, False)
    both = {"emails_disabled": False, "emails_enabled": False}
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=both)
    assert _get(svc)["emails_enabled"] is True  # emails_disabled is translated last
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", tag_list="a, b,A")
    got = _get(svc)
    assert got["topics"] == got["tag_list"] == ["a", "b"]
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body={"public_builds": False})
    assert _get(svc)["public_jobs"] is False


@pytest.mark.parametrize(
    ("written", "errors"),
    [
        ({"build_timeout": 599}, {"build_timeout": ["needs to be between 10 minutes and 1 month"]}),
        (
            {"build_timeout": 2629746},
            {"build_timeout": ["needs to be between 10 minutes and 1 month"]},
        ),
        (
            {"ci_default_git_depth": 1001},
            {"ci_cd_settings.default_git_depth": ["must be less than or equal to 1000"]},
        ),
        (
            {"ci_default_git_depth": -1},
            {"ci_cd_settings.default_git_depth": ["must be greater than or equal to 0"]},
        ),
        (
            {"ci_config_path": "../other/.gitlab-ci.yml"},
            {"ci_config_path": ["cannot include leading slash or directory traversal."]},
        ),
        (
            {"ci_config_path": "/abs.yml"},
            {"ci_config_path": ["cannot include leading slash or directory traversal."]},
        ),
        (
            {"suggestion_commit_message": "x" * 256},
            {"suggestion_commit_message": ["is too long (maximum is 255 characters)"]},
        ),
        (
            {"merge_commit_template": "x" * 501},
            {"merge_commit_template": ["is too long (maximum is 500 characters)"]},
        ),
        (
            {"repository_access_level": "private", "merge_requests_access_level": "enabled"},
            {
                "project_feature.merge_requests_access_level": [
                    "cannot have higher visibility level than repository access level"
                ],
                "project_feature.builds_access_level": [
                    "cannot have higher visibility level than repository access level"
                ],
                "project_feature.forking_access_level": [
                    "cannot have higher visibility level than repository access level"
                ],
            },
        ),
    ],
)
def test_model_validation_changes_nothing(
    svc: FakeService, written: dict[str, Any], errors: dict[str, list[str]]
) -> None:
    before = _get(svc)
    response = call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=written)
    assert (response.status, body(response)) == (400, {"message": errors})
    assert _get(svc) == before
    created = call_as(svc, "POST", "/projects", "olga", body={"name": "new", **written})
    assert (created.status, body(created)) == (400, {"message": errors})


@pytest.mark.parametrize(
    ("written", "error"),
    [
        ({"merge_method": "squash"}, "merge_method does not have a valid value"),
        ({"issues_access_level": "public"}, "issues_access_level does not have a valid value"),
        (
            {"auto_cancel_pending_pipelines": "on"},
            "auto_cancel_pending_pipelines does not have a valid value",
        ),
        ({"build_timeout": "soon"}, "build_timeout is invalid"),
        ({"issues_enabled": "perhaps"}, "issues_enabled is invalid"),
    ],
)
def test_parameter_errors(svc: FakeService, written: dict[str, Any], error: str) -> None:
    response = call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=written)
    assert (response.status, body(response)) == (400, {"error": error})


def test_pages_and_packages_take_public(svc: FakeService) -> None:
    written = {"pages_access_level": "public", "package_registry_access_level": "public"}
    assert call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=written).status == 200
    got = _get(svc)
    assert {k: got[k] for k in written} == written


def test_a_lower_plan_ignores_and_hides_paid_settings(svc: FakeService) -> None:
    instance(svc.store).plan = "free"
    written = {"merge_trains_enabled": True, "issues_template": "x", "merge_method": "ff"}
    response = call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=written)
    assert response.status == 200
    got = body(response)
    assert got["merge_method"] == "ff"
    assert "merge_trains_enabled" not in got and "issues_template" not in got
    assert "requirements_access_level" not in got and "requirements_enabled" not in got
    instance(svc.store).plan = "ultimate"
    got = _get(svc)
    assert (got["merge_trains_enabled"], got["issues_template"]) == (False, None)


def test_admin_only_settings_are_ignored_for_others(svc: FakeService) -> None:
    call_as(svc, "PUT", "/projects/infra%2Fsite", "olga", body={"max_artifacts_size": 5})
    assert _get(svc)["max_artifacts_size"] is None
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body={"max_artifacts_size": 5})
    assert _get(svc)["max_artifacts_size"] == 5


def test_null_keeps_a_defaulted_setting_and_clears_a_nullable_one(svc: FakeService) -> None:
    first = {"merge_commit_template": "m", "build_timeout": 900}
    call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=first)
    cleared = {"merge_commit_template": None, "build_timeout": None, "lfs_enabled": None}
    assert call_as(svc, "PUT", "/projects/infra%2Fsite", "root", body=cleared).status == 200
    got = _get(svc)
    assert (got["merge_commit_template"], got["build_timeout"], got["lfs_enabled"]) == (
        None,
        900,
        True,
    )


def test_create_for_user(svc: FakeService) -> None:
    dan = body(call_as(svc, "GET", "/users", "root", username="dan"))[0]
    response = call_as(
        svc,
        "POST",
        f"/projects/user/{dan['id']}",
        "root",
        body={"name": "Mine", "lfs_enabled": False},
    )
    assert response.status == 201, response.body
    created = body(response)
    assert created["path_with_namespace"] == "dan/mine"
    assert (created["creator_id"], created["lfs_enabled"]) == (dan["id"], False)
    refused = call_as(svc, "POST", f"/projects/user/{dan['id']}", "olga", body={"name": "x"})
    assert refused.status == 403
    missing = call_as(svc, "POST", "/projects/user/99999", "root", body={"name": "x"})
    assert (missing.status, body(missing)) == (404, {"message": "404 User Not Found"})
    no_name = call_as(svc, "POST", f"/projects/user/{dan['id']}", "root", body={})
    assert (no_name.status, body(no_name)) == (400, {"error": "name is missing"})


def test_python_gitlab_round_trip(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="olga-token", session=svc.requests_session()
    )
    project = gl.projects.create(
        {"name": "tf", "namespace_id": gl.namespaces.get("infra").id, "squash_option": "default_on"}
    )
    assert project.squash_option == "default_on"
    project.merge_method = "ff"
    project.topics = ["iac", "tf"]
    project.ci_default_git_depth = 10
    project.issues_access_level = "private"
    project.save()
    again = gl.projects.get(project.id)
    assert (again.merge_method, again.topics, again.ci_default_git_depth) == (
        "ff",
        ["iac", "tf"],
        10,
    )
    assert (again.issues_access_level, again.issues_enabled) == ("private", True)
    dan = gl.users.list(username="dan")[0]
    admin = gitlab.Gitlab(
        "http://fakeservice.test", private_token="root-token", session=svc.requests_session()
    )
    made = admin.users.get(dan.id).projects.create({"name": "Dan tools"})
    assert admin.projects.get(made.id).path_with_namespace == "dan/dan-tools"


def test_scenario_plan() -> None:
    svc = FakeService(
        {
            "plan": "premium",
            "users": [user_record("root", "Root", admin=True)],
            "projects": [{"path": "root/p"}],
        }
    )
    written = {"merge_trains_enabled": True, "only_allow_merge_if_all_status_checks_passed": True}
    got = body(svc.request("PUT", "/projects/root%2Fp", token="root-token", json_body=written))
    assert got["merge_trains_enabled"] is True  # premium
    assert "only_allow_merge_if_all_status_checks_passed" not in got  # ultimate


def test_scenario_settings() -> None:
    svc = FakeService(
        {
            "users": [user_record("root", "Root", admin=True)],
            "groups": [
                {
                    "path": "g",
                    "visibility": "public",
                    "settings": {"default_branch": "trunk", "emails_enabled": False},
                }
            ],
            "projects": [
                {
                    "path": "g/p",
                    "visibility": "public",
                    "settings": {"merge_method": "ff", "issues_enabled": False},
                }
            ],
        }
    )
    project = body(svc.request("GET", "/projects/g%2Fp"))
    assert (project["merge_method"], project["issues_access_level"]) == ("ff", "disabled")
    group = body(svc.request("GET", "/groups/g"))
    assert (group["default_branch"], group["emails_disabled"]) == ("trunk", True)


@pytest.mark.parametrize(
    ("settings_value", "message"),
    [
        ({"build_timeout": 5}, "{'build_timeout': ['needs to be between 10 minutes and 1 month']}"),
        ({"merge_method": "x"}, "merge_method does not have a valid value"),
    ],
)
def test_scenario_settings_are_validated(settings_value: dict[str, Any], message: str) -> None:
    from fakeservice.scenarios.problems import ScenarioError

    with pytest.raises(ScenarioError) as caught:
        FakeService(
            {
                "users": [user_record("root", "Root", admin=True)],
                "projects": [{"path": "root/p", "settings": settings_value}],
            }
        )
    assert f"projects[0].settings: {message}" in str(caught.value)
