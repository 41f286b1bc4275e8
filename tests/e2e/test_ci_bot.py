"""A CI bot: creates a project, commits a CI file, runs a pipeline on the simulated
runner in ``timed`` mode while moving the clock, reads the trace, the JUnit test report
and the artifacts, retries the failed job and watches the pipeline recover.

Everything goes over HTTP (python-gitlab for the API, the /_fake/ control plane for the
runner and the clock), as a test of a standalone server would do it.
"""

from __future__ import annotations

import io
import zipfile

import gitlab
import pytest

from .conftest import Live

CI_FILE = """\
stages: [build, test]

build:
  stage: build
  script: [make dist]
  artifacts:
    paths: [dist/]

test:
  stage: test
  script: [make test]
  artifacts:
    when: always
    paths: [report.xml]
    reports:
      junit: report.xml
"""

JUNIT_FAILING = (
    '<testsuite name="unit" tests="2">'
    '<testcase classname="app.Calc" name="test_add" time="0.25"/>'
    '<testcase classname="app.Calc" name="test_div" time="0.5">'
    '<failure message="ZeroDivisionError">Traceback: boom</failure></testcase>'
    "</testsuite>"
)
JUNIT_PASSING = (
    '<testsuite name="unit" tests="2">'
    '<testcase classname="app.Calc" name="test_add" time="0.25"/>'
    '<testcase classname="app.Calc" name="test_div" time="0.5"/>'
    "</testsuite>"
)

TERMINAL = ("success", "failed", "canceled", "skipped")


def t(hms: str) -> str:
    """A timestamp of the default scenario's day."""
    return f"2026-01-01T{hms}Z"


def make_project(live: Live) -> tuple[gitlab.Gitlab, object, str]:
    """alice creates acme/calc with a README, then commits the CI file."""
    gl = live.gitlab("alice-token")
    gl.auth()
    assert gl.user.username == "alice"

    acme = gl.groups.get("acme")
    project = gl.projects.create(
        {
            "name": "Calc",
            "path": "calc",
            "namespace_id": acme.id,
            "initialize_with_readme": True,
            "visibility": "private",
        }
    )
    assert project.path_with_namespace == "acme/calc"
    assert project.default_branch == "main"
    assert project.visibility == "private"
    assert project.empty_repo is False
    readme = project.files.get("README.md", ref="main")
    assert readme.decode().startswith(b"# Calc")
    (initial,) = project.commits.list(get_all=True)

    commit = project.commits.create(
        {
            "branch": "main",
            "commit_message": "Add CI",
            "actions": [{"action": "create", "file_path": ".gitlab-ci.yml", "content": CI_FILE}],
        }
    )
    assert commit.title == "Add CI"
    assert commit.parent_ids == [initial.id]
    assert commit.author_name == "Alice Liddell"
    assert project.files.raw(".gitlab-ci.yml", ref="main") == CI_FILE.encode()
    return gl, project, commit.id


def script_outcomes(live: Live) -> None:
    """build succeeds in 20 s with two files under dist/ (and one it does not keep);
    test fails in 12 s on its first attempt and passes in 10 s on the second."""
    live.control(
        "POST",
        "ci/outcomes",
        project="acme/calc",
        job_name="build",
        outcome={
            "status": "success",
            "duration": 20,
            "artifacts": {
                "dist/app.txt": "v1\n",
                "dist/lib/helper.txt": "help\n",
                "notes.txt": "not an artifact\n",
            },
        },
    )
    live.control(
        "POST",
        "ci/outcomes",
        project="acme/calc",
        job_name="test",
        outcome=[
            {
                "status": "failed",
                "failure_reason": "script_failure",
                "duration": 12,
                "log": ["collected 2 items", "1 failed, 1 passed"],
                "artifacts": {"report.xml": JUNIT_FAILING},
            },
            {"status": "success", "duration": 10, "artifacts": {"report.xml": JUNIT_PASSING}},
        ],
    )


def poll(live: Live, pipeline, step: float = 5) -> list[tuple[str, str, dict[str, str]]]:
    """What a bot sees while it polls every ``step`` seconds until the pipeline finishes."""
    seen = []
    for _ in range(100):
        now = live.advance(step)
        pipeline.refresh()
        jobs = {job.name: job.status for job in pipeline.jobs.list(get_all=True)}
        seen.append((now, pipeline.status, jobs))
        if pipeline.status in TERMINAL:
            return seen
    raise AssertionError(f"the pipeline never finished: {seen[-1]}")


def jobs_by_name(pipeline, **kwargs) -> dict[str, object]:
    return {job.name: job for job in pipeline.jobs.list(get_all=True, **kwargs)}


def test_ci_bot_runs_a_pipeline_reads_reports_and_artifacts_and_retries(live: Live) -> None:
    _, project, sha = make_project(live)

    # Lint before running: the committed file, then a broken variant.
    lint = project.ci_lint.get()
    assert (lint.valid, lint.errors, lint.warnings) == (True, [], [])
    broken = project.ci_lint.create({"content": CI_FILE.replace("stage: test", "stage: qa")})
    assert broken.valid is False
    assert broken.errors == [
        "test job: chosen stage does not exist; available stages are .pre, build, test, .post"
    ]

    # The runner: timed mode over the control plane, scripted outcomes.
    assert live.control("POST", "ci/runner", mode="timed") == {
        "mode": "timed",
        "pickup_seconds": 5.0,
        "pipelines_on_push": False,
        "projects": {},
    }
    script_outcomes(live)

    pipeline = project.pipelines.create({"ref": "main"})
    assert pipeline.status == "pending"
    assert (pipeline.iid, pipeline.ref, pipeline.sha, pipeline.source) == (1, "main", sha, "api")
    assert pipeline.user["username"] == "alice"
    assert pipeline.created_at == t("09:00:00")
    assert (pipeline.started_at, pipeline.finished_at) == (None, None)
    assert jobs_by_name(pipeline)["build"].status == "pending"
    assert jobs_by_name(pipeline)["test"].status == "created"

    # Poll every 5 s: build is picked up after 5 s, runs 20 s; test is picked up 5 s
    # later and fails after 12 s (at 09:00:42, seen at the next poll).
    assert poll(live, pipeline) == [
        (t("09:00:05"), "running", {"build": "running", "test": "created"}),
        (t("09:00:10"), "running", {"build": "running", "test": "created"}),
        (t("09:00:15"), "running", {"build": "running", "test": "created"}),
        (t("09:00:20"), "running", {"build": "running", "test": "created"}),
        (t("09:00:25"), "running", {"build": "success", "test": "pending"}),
        (t("09:00:30"), "running", {"build": "success", "test": "running"}),
        (t("09:00:35"), "running", {"build": "success", "test": "running"}),
        (t("09:00:40"), "running", {"build": "success", "test": "running"}),
        (t("09:00:45"), "failed", {"build": "success", "test": "failed"}),
    ]
    assert pipeline.started_at == t("09:00:05")
    assert pipeline.finished_at == t("09:00:42")
    assert pipeline.updated_at == t("09:00:42")
    assert pipeline.queued_duration == 5
    assert pipeline.duration is not None  # exact value: see test_pipeline_duration_...

    jobs = jobs_by_name(pipeline)
    build = project.jobs.get(jobs["build"].id)
    failed = project.jobs.get(jobs["test"].id)
    assert (build.status, build.stage, build.ref) == ("success", "build", "main")
    assert (build.started_at, build.finished_at) == (t("09:00:05"), t("09:00:25"))
    assert (build.duration, build.queued_duration) == (20.0, 5.0)
    assert build.pipeline == {
        "id": pipeline.id,
        "project_id": project.id,
        "ref": "main",
        "sha": sha,
        "status": "failed",
    }
    assert build.artifacts_expire_at == t("09:00:25").replace("01T", "31T")  # 30 days
    assert not hasattr(build, "failure_reason")
    assert (failed.status, failed.failure_reason) == ("failed", "script_failure")
    assert (failed.started_at, failed.finished_at) == (t("09:00:30"), t("09:00:42"))
    assert (failed.duration, failed.queued_duration) == (12.0, 5.0)
    assert {a["file_type"] for a in failed.attributes["artifacts"]} == {
        "archive",
        "metadata",
        "trace",
        "junit",
    }

    # The trace: the script and the scripted log, then the failure.
    trace = failed.trace().decode()
    assert "\n$ make test\ncollected 2 items\n1 failed, 1 passed\n" in trace
    assert trace.endswith("ERROR: Job failed: exit code 1\n")
    assert build.trace().decode().endswith("$ make dist\nJob succeeded\n")

    # The JUnit report of the failed attempt.
    report = pipeline.test_report.get()
    assert (report.total_count, report.success_count, report.failed_count) == (2, 1, 1)
    assert (report.skipped_count, report.error_count, report.total_time) == (0, 0, 0.75)
    (suite,) = report.test_suites
    assert (suite["name"], suite["total_count"], suite["failed_count"]) == ("test", 2, 1)
    cases = {case["name"]: case for case in suite["test_cases"]}
    assert cases["test_div"]["status"] == "failed"
    assert cases["test_div"]["classname"] == "app.Calc"
    assert cases["test_div"]["execution_time"] == 0.5
    assert cases["test_add"]["status"] == "success"
    summary = pipeline.test_report_summary.get()
    assert summary.total == {
        "time": 0.75,
        "count": 2,
        "success": 1,
        "failed": 1,
        "skipped": 0,
        "error": 0,
        "suite_error": None,
    }
    assert summary.test_suites[0]["build_ids"] == [failed.id]

    # Artifacts: the archive keeps dist/ only; one file by path; the failed job kept
    # its report (when: always).
    archive = build.artifacts()
    assert build.artifacts_file == {"filename": "artifacts.zip", "size": len(archive)}
    names = zipfile.ZipFile(io.BytesIO(archive)).namelist()
    assert [n for n in names if not n.endswith("/")] == ["dist/app.txt", "dist/lib/helper.txt"]
    assert build.artifact("dist/app.txt") == b"v1\n"
    assert build.artifact("dist/lib/helper.txt") == b"help\n"
    with pytest.raises(gitlab.GitlabGetError) as missing:
        build.artifact("notes.txt")
    assert missing.value.response_code == 404
    report_zip = zipfile.ZipFile(io.BytesIO(failed.artifacts()))
    assert report_zip.read("report.xml").decode() == JUNIT_FAILING
    # By ref: the latest *successful* pipeline of main; there is none yet.
    with pytest.raises(gitlab.GitlabGetError) as by_ref:
        project.artifacts.download(ref_name="main", job="build")
    assert by_ref.value.response_code == 404

    # Retry the failed job: a new job (new id) in the same pipeline.
    retried = failed.retry()
    assert retried["id"] not in (build.id, failed.id)
    assert (retried["name"], retried["status"]) == ("test", "pending")
    assert retried["created_at"] == t("09:00:45")
    pipeline.refresh()
    assert (pipeline.status, pipeline.finished_at, pipeline.duration) == ("running", None, None)

    assert poll(live, pipeline) == [
        (t("09:00:50"), "running", {"build": "success", "test": "running"}),
        (t("09:00:55"), "running", {"build": "success", "test": "running"}),
        (t("09:01:00"), "success", {"build": "success", "test": "success"}),
    ]
    assert pipeline.started_at == t("09:00:05")
    assert pipeline.finished_at == t("09:01:00")
    new_test = project.jobs.get(retried["id"])
    assert (new_test.status, new_test.started_at, new_test.finished_at) == (
        "success",
        t("09:00:50"),
        t("09:01:00"),
    )
    assert new_test.duration == 10.0
    with_retried = pipeline.jobs.list(get_all=True, include_retried=True)
    assert [(j.id, j.name, j.status) for j in with_retried] == [
        (new_test.id, "test", "success"),
        (failed.id, "test", "failed"),
        (build.id, "build", "success"),
    ]
    assert [j.id for j in pipeline.jobs.list(get_all=True)] == [new_test.id, build.id]

    # The report now comes from the latest attempt.
    summary = pipeline.test_report_summary.get()
    assert (summary.total["count"], summary.total["success"], summary.total["failed"]) == (2, 2, 0)
    assert summary.test_suites[0]["build_ids"] == [new_test.id]

    # By-ref downloads now find the successful pipeline.
    by_ref_zip = project.artifacts.download(ref_name="main", job="build")
    assert by_ref_zip == archive
    assert project.artifacts.raw("main", "dist/app.txt", "build") == b"v1\n"

    # What the bot did, from the journal.
    journal = live.service.journal
    assert journal.count(method="POST", path="/projects/*/pipeline", status=201) == 1
    assert journal.count(method="POST", path="/projects/*/jobs/*/retry", status=201) == 1
    assert journal.count(method="POST", path="/projects/*/pipeline", user="alice") == 1


def test_pipeline_retry_and_cancel_endpoints(live: Live) -> None:
    """The pipeline-level retry after a failure, and cancel of an active pipeline."""
    _, project, _ = make_project(live)
    live.control("POST", "ci/runner", mode="timed", pickup_seconds=1)
    live.control(
        "POST", "ci/outcomes", project="acme/calc", job_name="test", outcome=["failed", "success"]
    )

    pipeline = project.pipelines.create({"ref": "main"})
    live.advance(120)
    pipeline.refresh()
    assert pipeline.status == "failed"

    answer = pipeline.retry()
    assert (answer["id"], answer["finished_at"]) == (pipeline.id, None)
    assert [(j.name, j.status) for j in pipeline.jobs.list(get_all=True)] == [
        ("test", "pending"),
        ("build", "success"),
    ]
    live.advance(120)
    pipeline.refresh()
    assert pipeline.status == "success"

    second = project.pipelines.create({"ref": "main"})
    live.advance(2)  # build is running
    second.cancel()
    second.refresh()
    assert second.status == "canceling"  # the running build waits for its runner
    live.advance(1)  # the runner's next poll acknowledges the cancel
    second.refresh()
    assert second.status == "canceled"
    assert sorted((j.name, j.status) for j in second.jobs.list(get_all=True)) == [
        ("build", "canceled"),
        ("test", "canceled"),
    ]


def test_pipeline_duration_is_the_running_time_of_its_latest_jobs(live: Live) -> None:
    _, project, _ = make_project(live)
    live.control("POST", "ci/runner", mode="timed")
    script_outcomes(live)
    pipeline = project.pipelines.create({"ref": "main"})
    poll(live, pipeline)
    assert pipeline.status == "failed"
    assert pipeline.duration == 20 + 12  # build 09:00:05-25, test 09:00:30-42

    project.jobs.get(jobs_by_name(pipeline)["test"].id).retry()
    poll(live, pipeline)
    assert pipeline.status == "success"
    assert pipeline.duration == 20 + 10  # build, and the retried test 09:00:50-09:01:00


def test_retrying_a_failed_pipeline_answers_its_composite_status(live: Live) -> None:
    """Seed 000 section 3 says a retried pipeline goes to ``pending``; the service derives
    the status from the latest jobs (FIDELITY composite rules): with ``build`` already a
    success and the retried ``test`` pending, that is ``running``. When every latest job
    is pending again (the first stage failed), it is ``pending``."""
    _, project, _ = make_project(live)
    live.control("POST", "ci/runner", mode="timed")
    live.control("POST", "ci/outcomes", project="acme/calc", job_name="test", status="failed")
    pipeline = project.pipelines.create({"ref": "main"})
    live.advance(120)
    pipeline.refresh()
    assert pipeline.status == "failed"
    assert pipeline.retry()["status"] == "running"

    live.control("POST", "ci/outcomes", project="acme/calc", job_name="build", status="failed")
    first_stage = project.pipelines.create({"ref": "main"})
    live.advance(120)
    first_stage.refresh()
    assert first_stage.status == "failed"
    assert first_stage.retry()["status"] == "pending"
