"""Pipelines over raw HTTP (seed 000 §2.6, §2.7, §3, §4.2): create from the CI file (and
every refusal), list with every filter and ordering, get, retry, cancel, delete,
variables, test report and summary."""

from __future__ import annotations

import pytest

from fakeservice import FakeService

from .ci_support import (
    ALICE,
    BOB,
    PROJECT,
    body,
    call,
    commit_file,
    create_pipeline,
    job_named,
    jobs_of,
    pipeline,
)

DETAIL_KEYS = [
    "id",
    "iid",
    "project_id",
    "sha",
    "ref",
    "status",
    "source",
    "created_at",
    "updated_at",
    "web_url",
    "before_sha",
    "tag",
    "yaml_errors",
    "user",
    "started_at",
    "finished_at",
    "committed_at",
    "duration",
    "queued_duration",
    "coverage",
    "detailed_status",
]


def test_create_answers_the_pending_pipeline(svc: FakeService) -> None:
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", ALICE, json_body={"ref": "main"})
    assert response.status == 201
    assert response.header("Content-Type") == "application/json"
    created = body(response)
    assert list(created) == DETAIL_KEYS
    assert created["status"] == "pending" and created["source"] == "api"
    assert created["iid"] == 1 and created["ref"] == "main" and created["tag"] is False
    assert created["before_sha"] == "0" * 40 and created["yaml_errors"] is None
    assert created["user"]["username"] == "alice" and "created_at" not in created["user"]
    assert created["web_url"] == f"http://fakeservice.test/acme/pipes/-/pipelines/{created['id']}"
    assert created["created_at"] == created["updated_at"] == "2026-01-01T09:00:00Z"
    assert created["started_at"] is None and created["duration"] is None
    assert created["coverage"] is None
    assert pipeline(svc, created["id"]) == created


def test_create_for_tag_and_branch_with_slash(svc: FakeService) -> None:
    tagged = create_pipeline(svc, ref="v1.0")
    assert tagged["tag"] is True and tagged["ref"] == "v1.0"
    assert job_named(svc, tagged["id"], "build")["tag"] is True
    feature = create_pipeline(svc, ref="feature/x")
    assert feature["ref"] == "feature/x" and feature["iid"] == 2


def test_create_with_variables_of_both_types(svc: FakeService) -> None:
    variables = [
        {"key": "PLAIN", "value": "1"},
        {"key": "FILE_VAR", "value": "secret", "variable_type": "file"},
        {"key": "ENV", "value": "x", "variable_type": "env_var"},
    ]
    created = create_pipeline(svc, variables=variables)
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/variables")
    assert response.status == 200 and response.header("X-Total") == "3"
    assert body(response) == [
        {"key": "PLAIN", "variable_type": "env_var", "value": "1"},
        {"key": "FILE_VAR", "variable_type": "file", "value": "secret"},
        {"key": "ENV", "variable_type": "env_var", "value": "x"},
    ]


def test_create_with_form_encoded_variables(svc: FakeService) -> None:
    response = call(
        svc,
        "POST",
        f"/projects/{PROJECT}/pipeline",
        data={"ref": "main", "variables[][key]": "A", "variables[][value]": "1"},
    )
    assert response.status == 201
    pid = body(response)["id"]
    got = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{pid}/variables"))
    assert got == [{"key": "A", "variable_type": "env_var", "value": "1"}]


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ({}, "ref is missing"),
        ({"ref": "main", "variables": [{"value": "1"}]}, "variables[0][key] is missing"),
        (
            {"ref": "main", "variables": [{"key": "A", "variable_type": "secret"}]},
            "variables[0][variable_type] does not have a valid value",
        ),
        ({"ref": "main", "variables": "A=1"}, "variables is invalid"),
    ],
)
def test_create_parameter_errors(svc: FakeService, payload: dict, error: str) -> None:
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body=payload)
    assert response.status == 400 and body(response) == {"error": error}


def test_create_refusals(svc: FakeService) -> None:
    unknown = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "nope"})
    assert unknown.status == 400
    assert body(unknown) == {"message": {"base": ["Reference not found"]}}
    sha = body(call(svc, "GET", f"/projects/{PROJECT}/repository/branches/main"))["commit"]["id"]
    by_sha = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": sha})
    assert body(by_sha) == {"message": {"base": ["Reference not found"]}}
    empty = call(svc, "POST", "/projects/acme%2Fplatform%2Fapi/pipeline", json_body={"ref": "main"})
    assert body(empty) == {"message": {"base": ["Reference not found"]}}
    no_ci = call(svc, "POST", "/projects/alice%2Fdotfiles/pipeline", json_body={"ref": "main"})
    assert no_ci.status == 400
    assert body(no_ci) == {"message": {"base": ["Missing CI config file"]}}
    assert body(call(svc, "GET", f"/projects/{PROJECT}/pipelines")) == []


def test_missing_ci_file(svc: FakeService) -> None:
    from fakeservice.projects.models import find_project

    find_project(svc.store, "acme/pipes").ci_config_path = "ci/missing.yml"
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert response.status == 400
    assert body(response) == {"message": {"base": ["Missing CI config file"]}}


def test_ci_config_path_is_used(svc: FakeService) -> None:
    from fakeservice.projects.models import find_project

    commit_file(svc, "ci/other.yml", "only:\n  script: [x]\n")
    find_project(svc.store, "acme/pipes").ci_config_path = "ci/other.yml"
    created = create_pipeline(svc)
    assert [j["name"] for j in jobs_of(svc, created["id"])] == ["only"]


def test_invalid_config_stores_a_failed_pipeline(svc: FakeService) -> None:
    commit_file(svc, ".gitlab-ci.yml", "build:\n  script: [make]\n  bogus: 1\n")
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert response.status == 400
    assert body(response) == {
        "message": {"base": ["jobs:build config contains unknown keys: bogus"]}
    }
    listed = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines", query={"yaml_errors": "true"}))
    assert len(listed) == 1 and listed[0]["status"] == "failed"
    failed = pipeline(svc, listed[0]["id"])
    assert failed["yaml_errors"] == "jobs:build config contains unknown keys: bogus"
    assert failed["finished_at"] == "2026-01-01T09:00:00Z" and failed["started_at"] is None
    assert jobs_of(svc, failed["id"]) == []
    clean = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines", query={"yaml_errors": "no"}))
    assert clean == []


def test_workflow_rules_and_empty_plans(svc: FakeService) -> None:
    commit_file(
        svc,
        ".gitlab-ci.yml",
        "workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\nbuild:\n  script: [make]\n",
    )
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert body(response) == {"message": {"base": ["Pipeline filtered out by workflow rules."]}}
    commit_file(svc, ".gitlab-ci.yml", "build:\n  script: [make]\n  only: [tags]\n")
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert body(response) == {"message": {"base": ["No stages / jobs for this pipeline."]}}
    assert body(call(svc, "GET", f"/projects/{PROJECT}/pipelines")) == []


def test_variables_drive_rules(svc: FakeService) -> None:
    commit_file(
        svc,
        ".gitlab-ci.yml",
        'always:\n  script: [a]\nnightly:\n  script: [n]\n  rules:\n    - if: $NIGHTLY == "1"\n',
    )
    plain = create_pipeline(svc)
    assert [j["name"] for j in jobs_of(svc, plain["id"])] == ["always"]
    nightly = create_pipeline(svc, variables=[{"key": "NIGHTLY", "value": "1"}])
    assert [j["name"] for j in jobs_of(svc, nightly["id"])] == ["nightly", "always"]


def test_create_permissions(svc: FakeService) -> None:
    anonymous = call(svc, "POST", f"/projects/{PROJECT}/pipeline", None, json_body={"ref": "main"})
    assert anonymous.status == 401 and body(anonymous) == {"message": "401 Unauthorized"}
    reporter = svc.request(
        "POST",
        f"/projects/{PROJECT}/pipeline",
        json_body={"ref": "main"},
        token="root-token",
        headers={"Sudo": "bob"},
    )
    assert reporter.status == 403 and body(reporter) == {"message": "403 Forbidden"}
    read_only = call(svc, "POST", f"/projects/{PROJECT}/pipeline", BOB, json_body={"ref": "main"})
    assert read_only.status == 403 and body(read_only)["error"] == "insufficient_scope"


def _mixed(svc: FakeService) -> list[dict]:
    """Five root pipelines: success (main, root), failed (feature/x, alice), canceled
    (v1.0), pending (main, alice), running (main)."""
    first = create_pipeline(svc)
    svc.runner.run_all(first["id"])
    svc.clock.advance(seconds=10)
    second = create_pipeline(svc, ref="feature/x", token=ALICE)
    build = job_named(svc, second["id"], "build")
    svc.runner.finish(build["id"], "failed")
    svc.clock.advance(seconds=10)
    third = create_pipeline(svc, ref="v1.0")
    call(svc, "POST", f"/projects/{PROJECT}/pipelines/{third['id']}/cancel")
    svc.clock.advance(seconds=10)
    fourth = create_pipeline(svc, token=ALICE)
    svc.clock.advance(seconds=10)
    fifth = create_pipeline(svc)
    svc.runner.start(job_named(svc, fifth["id"], "build")["id"])
    return [pipeline(svc, p["id"]) for p in (first, second, third, fourth, fifth)]


def _ids(svc: FakeService, query: dict | str) -> list[int]:
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines", query=query or None)
    assert response.status == 200, response.body
    return [p["id"] for p in body(response)]


def test_list_filters_and_orders(svc: FakeService) -> None:
    p = _mixed(svc)
    ids = [x["id"] for x in p]
    assert [x["status"] for x in p] == ["success", "failed", "canceled", "pending", "running"]
    assert _ids(svc, {}) == ids[::-1]
    assert _ids(svc, {"sort": "asc"}) == ids
    assert _ids(svc, {"scope": "running"}) == [ids[4]]
    assert _ids(svc, {"scope": "pending"}) == [ids[3]]
    assert _ids(svc, {"scope": "finished"}) == [ids[2], ids[1], ids[0]]
    assert _ids(svc, {"scope": "branches"}) == [ids[4], ids[1]]
    assert _ids(svc, {"scope": "tags"}) == [ids[2]]
    assert _ids(svc, {"status": "failed"}) == [ids[1]]
    assert _ids(svc, {"source": "api"}) == ids[::-1]
    assert _ids(svc, {"source": "push"}) == []
    assert _ids(svc, {"ref": "feature/x"}) == [ids[1]]
    assert _ids(svc, {"sha": p[0]["sha"]}) == [ids[4], ids[3], ids[2], ids[1], ids[0]]
    assert _ids(svc, {"sha": "0" * 40}) == []
    assert _ids(svc, {"username": "alice"}) == [ids[3], ids[1]]
    assert _ids(svc, {"username": "nobody"}) == []
    assert _ids(svc, {"updated_after": "2026-01-01T09:00:25Z"}) == [ids[4], ids[3]]
    assert _ids(svc, {"updated_before": "2026-01-01T09:00:15Z"}) == [ids[1], ids[0]]
    assert _ids(svc, {"order_by": "status", "sort": "asc"}) == [
        ids[2],
        ids[1],
        ids[3],
        ids[4],
        ids[0],
    ]
    assert _ids(svc, {"order_by": "ref", "sort": "asc"}) == [ids[1], ids[0], ids[3], ids[4], ids[2]]
    assert _ids(svc, {"order_by": "user_id"}) == [ids[3], ids[1], ids[4], ids[2], ids[0]]
    assert _ids(svc, {"order_by": "updated_at"}) == [ids[4], ids[3], ids[2], ids[1], ids[0]]
    assert _ids(svc, {"scope": "finished", "ref": "main"}) == [ids[0]]


def test_list_item_fields_and_errors(svc: FakeService) -> None:
    created = create_pipeline(svc)
    (item,) = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines"))
    assert list(item) == DETAIL_KEYS[:10]
    assert item["id"] == created["id"] and item["source"] == "api"
    for query, error in (
        ({"scope": "all"}, "scope does not have a valid value"),
        ({"status": "done"}, "status does not have a valid value"),
        ({"source": "cron"}, "source does not have a valid value"),
        ({"order_by": "name"}, "order_by does not have a valid value"),
        ({"sort": "up"}, "sort does not have a valid value"),
        ({"updated_after": "yesterday"}, "updated_after is invalid"),
        ({"yaml_errors": "perhaps"}, "yaml_errors is invalid"),
    ):
        response = call(svc, "GET", f"/projects/{PROJECT}/pipelines", query=query)
        assert response.status == 400 and body(response) == {"error": error}, query


def test_get_pipeline_errors(svc: FakeService) -> None:
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/42")
    assert response.status == 404 and body(response) == {"message": "404 Pipeline Not Found"}
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/first")
    assert response.status == 400 and body(response) == {"error": "pipeline_id is invalid"}


def test_timestamps_and_durations(svc: FakeService) -> None:
    svc.runner.set_mode("timed", project="acme/pipes")
    created = create_pipeline(svc)
    svc.clock.advance(seconds=3)
    assert pipeline(svc, created["id"])["status"] == "pending"
    svc.clock.advance(seconds=2)
    running = pipeline(svc, created["id"])
    assert running["status"] == "running"
    assert running["started_at"] == "2026-01-01T09:00:05Z" and running["queued_duration"] == 5
    svc.clock.advance(seconds=600)
    done = pipeline(svc, created["id"])
    assert done["status"] == "success"
    # build 5..35; test and lint queued at 35, picked up at 40 (test runs 40 s: 40..80);
    # the bridge runs at 80; the child's jobs run 85..115. The duration is the union of
    # the running periods (5..35 and 40..115), not finished_at - started_at.
    assert done["finished_at"] == "2026-01-01T09:01:55Z"
    assert done["duration"] == 105 and done["coverage"] == "87.50"
    assert done["updated_at"] == done["finished_at"]


def test_retry_pipeline(svc: FakeService) -> None:
    created = create_pipeline(svc)
    first = job_named(svc, created["id"], "build")
    svc.runner.set_outcome(job_id=first["id"], status="failed")
    svc.runner.run_all(created["id"])
    assert pipeline(svc, created["id"])["status"] == "failed"
    svc.clock.advance(seconds=30)
    response = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{created['id']}/retry", ALICE)
    assert response.status == 201
    retried = body(response)
    assert retried["status"] == "pending" and retried["finished_at"] is None
    assert retried["updated_at"] == "2026-01-01T09:00:30Z"
    statuses = {j["name"]: j["status"] for j in jobs_of(svc, created["id"])}
    assert statuses == {
        "build": "pending",
        "test": "created",
        "lint": "created",
        "deploy": "created",
    }
    assert len(jobs_of(svc, created["id"], "?include_retried=true")) == 5
    svc.runner.run_all(created["id"])
    assert pipeline(svc, created["id"])["status"] == "success"
    again = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{created['id']}/retry")
    assert again.status == 201 and body(again)["status"] == "success"


def test_cancel_pipeline_cascades_to_children(svc: FakeService) -> None:
    created = create_pipeline(svc)
    for name in ("build", "test", "lint"):
        svc.runner.finish(job_named(svc, created["id"], name)["id"])
    bridge = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/bridges"))[0]
    assert bridge["status"] == "running"
    child_id = bridge["downstream_pipeline"]["id"]
    assert pipeline(svc, child_id)["status"] == "pending"
    response = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{created['id']}/cancel")
    assert response.status == 200
    assert body(response)["status"] == "canceled"
    assert pipeline(svc, child_id)["status"] == "canceled"
    assert {j["status"] for j in jobs_of(svc, child_id)} == {"canceled"}
    again = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{created['id']}/cancel")
    assert again.status == 200 and body(again) == body(response)


def test_delete_pipeline(svc: FakeService) -> None:
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    bridge = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/bridges"))[0]
    child_id = bridge["downstream_pipeline"]["id"]
    path = f"/projects/{PROJECT}/pipelines/{created['id']}"
    developer = svc.request("DELETE", path, token="root-token", headers={"Sudo": "dev003"})
    assert developer.status == 403
    response = call(svc, "DELETE", path, ALICE)
    assert response.status == 204 and response.body == b""
    assert call(svc, "GET", path).status == 404
    assert call(svc, "GET", f"/projects/{PROJECT}/pipelines/{child_id}").status == 404
    assert body(call(svc, "GET", f"/projects/{PROJECT}/jobs")) == []
    assert call(svc, "DELETE", path, ALICE).status == 404


def test_test_report_and_summary(svc: FakeService) -> None:
    created = create_pipeline(svc)
    empty = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/test_report"))
    assert empty["total_count"] == 0 and empty["test_suites"] == []
    svc.runner.run_all(created["id"])
    build = job_named(svc, created["id"], "build")
    report = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/test_report"))
    assert {k: report[k] for k in report if k != "test_suites"} == {
        "total_time": 0.75,
        "total_count": 3,
        "success_count": 1,
        "failed_count": 1,
        "skipped_count": 1,
        "error_count": 0,
    }
    (suite,) = report["test_suites"]
    assert suite["name"] == "build" and suite["total_count"] == 3
    assert [c["status"] for c in suite["test_cases"]] == ["failed", "success", "skipped"]
    case = suite["test_cases"][1]
    assert case == {
        "status": "success",
        "name": "adds",
        "classname": "app.Calc",
        "execution_time": 0.25,
        "system_output": None,
        "stack_trace": None,
    }
    summary = body(
        call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/test_report_summary")
    )
    assert summary["total"] == {
        "time": 0.75,
        "count": 3,
        "success": 1,
        "failed": 1,
        "skipped": 1,
        "error": 0,
        "suite_error": None,
    }
    assert summary["test_suites"][0]["build_ids"] == [build["id"]]


def test_broken_junit_becomes_a_suite_error(svc: FakeService) -> None:
    svc.runner.set_outcome(
        "build", {"artifacts": {"reports/junit.xml": "<testsuite><unclosed>"}}, project="acme/pipes"
    )
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    summary = body(
        call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/test_report_summary")
    )
    assert summary["total"]["suite_error"].startswith("JUnit XML parsing failed")
    assert summary["total"]["count"] == 0


def test_child_pipelines_nest_two_levels_at_most(svc: FakeService) -> None:
    commit_file(svc, "ci/loop.yml", "again:\n  trigger:\n    include: ci/loop.yml\n")
    commit_file(svc, ".gitlab-ci.yml", "start:\n  trigger:\n    include: ci/loop.yml\n")
    created = create_pipeline(svc)
    assert created["status"] == "success"
    chain = [created["id"]]
    while True:
        bridges = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{chain[-1]}/bridges"))
        downstream = bridges[0]["downstream_pipeline"]
        if downstream is None:
            assert bridges[0]["status"] == "failed"
            assert bridges[0]["failure_reason"] == "reached_max_descendant_pipelines_depth"
            break
        chain.append(downstream["id"])
    assert len(chain) == 3
    assert [pipeline(svc, pid)["source"] for pid in chain] == [
        "api",
        "parent_pipeline",
        "parent_pipeline",
    ]


def test_invalid_child_configuration_fails_the_bridge(svc: FakeService) -> None:
    commit_file(svc, ".gitlab-ci.yml", "start:\n  trigger:\n    include: ci/missing.yml\n")
    created = create_pipeline(svc)
    assert created["status"] == "failed"
    (bridge,) = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/bridges"))
    assert bridge["failure_reason"] == "downstream_pipeline_creation_failed"
