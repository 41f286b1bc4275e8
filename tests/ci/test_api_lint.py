"""CI lint over raw HTTP (seed 000 §2.7, §4.4): instance and project level, ``dry_run``,
``include_jobs``, ``include_merged_yaml``, and the missing-content error. Lint and
pipeline creation agree because they share one engine."""

from __future__ import annotations

from fakeservice import FakeService

from .ci_support import (
    ALICE,
    BOB,
    CAROL,
    PROJECT,
    body,
    call,
    commit_file,
)

VALID = "build:\n  script: [make]\n"
LINT_JOB = {
    "name": "build",
    "stage": "test",
    "before_script": [],
    "script": ["make"],
    "after_script": [],
    "tag_list": [],
    "environment": None,
    "when": "on_success",
    "allow_failure": False,
    "only": {"refs": ["branches", "tags"]},
    "except": None,
}


def test_instance_lint(svc: FakeService) -> None:
    response = call(svc, "POST", "/ci/lint", None, json_body={"content": VALID})
    assert response.status == 200 and response.header("Content-Type") == "application/json"
    assert body(response) == {"status": "valid", "errors": [], "warnings": []}
    full = call(
        svc,
        "POST",
        "/ci/lint",
        None,
        json_body={"content": VALID, "include_merged_yaml": True, "include_jobs": True},
    )
    assert body(full) == {
        "status": "valid",
        "errors": [],
        "warnings": [],
        "merged_yaml": "---\nbuild:\n  script:\n  - make\n",
        "jobs": [LINT_JOB],
    }


def test_instance_lint_errors(svc: FakeService) -> None:
    missing = call(svc, "POST", "/ci/lint", None, json_body={"include_jobs": True})
    assert missing.status == 400 and body(missing) == {"error": "content is missing"}
    empty = call(svc, "POST", "/ci/lint", None, json_body={"content": ""})
    assert body(empty) == {
        "status": "invalid",
        "errors": ["Please provide content of .gitlab-ci.yml"],
        "warnings": [],
    }
    invalid = call(
        svc,
        "POST",
        "/ci/lint",
        json_body={"content": "build:\n  script: [make]\n  tags: 3\n", "include_jobs": True},
    )
    assert body(invalid) == {
        "status": "invalid",
        "errors": ["jobs:build:tags config should be an array of strings"],
        "warnings": [],
        "jobs": [],
    }
    local = call(svc, "POST", "/ci/lint", json_body={"content": "include:\n  - local: a.yml\n"})
    assert body(local)["status"] == "invalid"
    bad_flag = call(svc, "POST", "/ci/lint", json_body={"content": VALID, "include_jobs": "x"})
    assert bad_flag.status == 400 and body(bad_flag) == {"error": "include_jobs is invalid"}


def test_project_lint_reads_local_includes(svc: FakeService) -> None:
    content = "include:\n  - local: ci/child.yml\n"
    response = call(
        svc, "POST", f"/projects/{PROJECT}/ci/lint", ALICE, json_body={"content": content}
    )
    assert response.status == 200
    result = body(response)
    assert list(result) == ["valid", "errors", "warnings", "merged_yaml", "includes"]
    assert result["valid"] is True and result["errors"] == []
    assert result["merged_yaml"].startswith("---\ninner:\n")
    (included,) = result["includes"]
    assert included["type"] == "local" and included["location"] == "ci/child.yml"
    with_jobs = call(
        svc,
        "POST",
        f"/projects/{PROJECT}/ci/lint",
        ALICE,
        json_body={"content": content, "include_jobs": True},
    )
    assert [job["name"] for job in body(with_jobs)["jobs"]] == ["inner", "build"]


def test_project_lint_dry_run(svc: FakeService) -> None:
    content = "tagged:\n  script: [x]\n  only: [tags]\n"
    path = f"/projects/{PROJECT}/ci/lint"
    static = body(call(svc, "POST", path, ALICE, json_body={"content": content}))
    assert static["valid"] is True
    dry = body(
        call(
            svc,
            "POST",
            path,
            ALICE,
            json_body={"content": content, "dry_run": True, "include_jobs": True},
        )
    )
    assert dry["valid"] is False and dry["errors"] == ["No stages / jobs for this pipeline."]
    assert dry["jobs"] == []
    on_tag = body(
        call(
            svc,
            "POST",
            path,
            ALICE,
            json_body={"content": content, "dry_run": True, "ref": "v1.0", "include_jobs": True},
        )
    )
    assert on_tag["valid"] is True
    assert [job["name"] for job in on_tag["jobs"]] == ["tagged"]
    assert "only" not in on_tag["jobs"][0]


def test_project_lint_errors_and_access(svc: FakeService) -> None:
    path = f"/projects/{PROJECT}/ci/lint"
    missing = call(svc, "POST", path, ALICE, json_body={})
    assert missing.status == 400 and body(missing) == {"error": "content is missing"}
    invalid = body(call(svc, "POST", path, ALICE, json_body={"content": "a: [\n"}))
    assert invalid["valid"] is False and invalid["merged_yaml"] is None
    assert invalid["errors"][0].startswith("(<unknown>): did not find expected node content")
    assert call(svc, "POST", path, BOB, json_body={"content": VALID}).status == 403
    private = call(
        svc,
        "POST",
        "/projects/acme%2Fsecret-ops%2Fvault/ci/lint",
        CAROL,
        json_body={"content": VALID},
    )
    assert private.status == 404


def test_get_project_lint_validates_the_ci_file(svc: FakeService) -> None:
    response = call(svc, "GET", f"/projects/{PROJECT}/ci/lint", None)
    assert response.status == 200
    result = body(response)
    assert result["valid"] is True and "jobs" not in result
    jobs = body(call(svc, "GET", f"/projects/{PROJECT}/ci/lint", query={"include_jobs": "true"}))
    assert [job["name"] for job in jobs["jobs"]] == ["build", "test", "lint", "deploy", "child"]
    dry = body(
        call(
            svc,
            "GET",
            f"/projects/{PROJECT}/ci/lint",
            query={"dry_run": "true", "include_jobs": "true"},
        )
    )
    assert dry["valid"] is True and len(dry["jobs"]) == 5
    commit_file(svc, ".gitlab-ci.yml", "build:\n  stage: nope\n  script: [x]\n")
    broken = body(call(svc, "GET", f"/projects/{PROJECT}/ci/lint"))
    assert broken["valid"] is False
    assert broken["errors"] == [
        "build job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post"
    ]
    created = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert body(created) == {"message": {"base": broken["errors"]}}
    empty = body(call(svc, "GET", "/projects/acme%2Fplatform%2Fapi/ci/lint"))
    assert empty == {
        "valid": False,
        "errors": ["Please provide content of .gitlab-ci.yml"],
        "warnings": [],
        "merged_yaml": None,
        "includes": [],
    }
