"""Default artifacts: a build whose outcome gives no ``artifacts`` leaves files made for
its ``artifacts:paths`` and JUnit reports (:mod:`fakeservice.ci.artifacts.synthesis`); scripted
artifacts keep full control. Raw HTTP and python-gitlab over a live server."""

from __future__ import annotations

import gzip
import io
import zipfile
from typing import Any

import gitlab
import pytest
from support.services import stamp

from fakeservice import FakeService
from fakeservice.ci.artifacts.synthesis import concrete_path, job_slug
from fakeservice.ci.models import jobs

from .ci_support import PROJECT, body, call, commit_file, create_pipeline, job_named, new_service

WEBSITE = "acme%2Fwebsite"


def website() -> FakeService:
    """The built-in default scenario (acme/website: build keeps public/, test has JUnit)."""
    return stamp("default", "default")


def run_website(svc: FakeService) -> dict[str, Any]:
    created = call(svc, "POST", f"/projects/{WEBSITE}/pipeline", json_body={"ref": "main"})
    assert created.status == 201, created.body
    pipeline = body(created)
    svc.runner.run_all(pipeline["id"])
    return pipeline


def website_job(svc: FakeService, pipeline_id: int, name: str) -> dict[str, Any]:
    listed = body(call(svc, "GET", f"/projects/{WEBSITE}/pipelines/{pipeline_id}/jobs"))
    return next(job for job in listed if job["name"] == name)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("public/", "public/index.html"),
        ("public", "public/index.html"),
        ("./out/app.tar.gz", "out/app.tar.gz"),
        ("report.xml", "report.xml"),
        ("dist/*.whl", "dist/my-job.whl"),
        ("**/*.log", "my-job.log"),
        ("logs/**", "logs/my-job/index.html"),
        ("reports/junit-?.xml", "reports/junit-0.xml"),
        ("[ab]lpha.txt", "alpha.txt"),
        ("$CI_PROJECT_DIR/public", None),
        ("../outside.txt", None),
        ("/abs/file.txt", None),
        ("", None),
    ],
)
def test_concrete_paths(pattern: str, expected: str | None) -> None:
    assert concrete_path(pattern, "my-job", "index.html") == expected


def test_job_slugs() -> None:
    assert job_slug("Build: Linux x64") == "build-linux-x64"
    assert job_slug("!!!") == "job"


def test_default_scenario_pipeline_has_an_archive_and_a_test_report() -> None:
    svc = website()
    pipeline = run_website(svc)
    build = website_job(svc, pipeline["id"], "build")
    test = website_job(svc, pipeline["id"], "test")
    assert build["status"] == "success" and test["status"] == "success"
    archive = call(svc, "GET", f"/projects/{WEBSITE}/jobs/{build['id']}/artifacts")
    assert archive.status == 200 and archive.header("Content-Type") == "application/zip"
    assert build["artifacts_file"] == {"filename": "artifacts.zip", "size": len(archive.body)}
    assert [a["file_type"] for a in build["artifacts"]] == ["archive", "metadata", "trace"]
    zipped = zipfile.ZipFile(io.BytesIO(archive.body))
    assert zipped.namelist() == ["public/", "public/index.html"]
    short = build["commit"]["short_id"]
    page = (
        "<!DOCTYPE html>\n<title>build</title>\n"
        f"<p>Made by job build (#{build['id']}) of pipeline #{pipeline['id']} "
        f"for main at {short}.</p>\n"
    )
    assert zipped.read("public/index.html").decode() == page
    raw = call(
        svc,
        "GET",
        f"/projects/{WEBSITE}/jobs/artifacts/main/raw/public/index.html",
        None,
        query={"job": "build"},
    )
    assert raw.status == 200 and raw.body.decode() == page
    assert raw.header("Content-Type") == "text/html"
    assert "artifacts_file" not in test
    assert [a["file_type"] for a in test["artifacts"]] == ["trace", "junit"]
    report = body(call(svc, "GET", f"/projects/{WEBSITE}/pipelines/{pipeline['id']}/test_report"))
    counts = {
        "total_time": 0.0,
        "total_count": 1,
        "success_count": 1,
        "failed_count": 0,
        "skipped_count": 0,
        "error_count": 0,
    }
    case = {
        "status": "success",
        "name": "test",
        "classname": "test",
        "execution_time": 0.0,
        "system_output": None,
        "stack_trace": None,
    }
    assert report == {
        **counts,
        "test_suites": [{"name": "test", **counts, "suite_error": None, "test_cases": [case]}],
    }
    summary = body(
        call(svc, "GET", f"/projects/{WEBSITE}/pipelines/{pipeline['id']}/test_report_summary")
    )
    assert summary == {
        "total": {
            "time": 0.0,
            "count": 1,
            "success": 1,
            "failed": 0,
            "skipped": 0,
            "error": 0,
            "suite_error": None,
        },
        "test_suites": [{"name": "test", **counts, "build_ids": [test["id"]], "suite_error": None}],
    }


def test_timed_runner_reports_the_job_duration_as_the_case_time() -> None:
    svc = website()
    svc.runner.set_mode("timed")
    created = body(call(svc, "POST", f"/projects/{WEBSITE}/pipeline", json_body={"ref": "main"}))
    svc.clock.advance(minutes=5)
    test = website_job(svc, created["id"], "test")
    record = jobs(svc.store).rows[test["id"]]
    document = gzip.decompress(record.junit_gz or b"").decode()
    assert document == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="test" tests="1" failures="0" errors="0" skipped="0" time="30.000">\n'
        '  <testsuite name="test" tests="1" failures="0" errors="0" skipped="0" time="30.000">\n'
        '    <testcase classname="test" name="test" time="30.000"/>\n'
        "  </testsuite>\n"
        "</testsuites>\n"
    )
    summary = body(
        call(svc, "GET", f"/projects/{WEBSITE}/pipelines/{created['id']}/test_report_summary")
    )
    assert summary["total"]["time"] == 30.0 and summary["total"]["success"] == 1


def test_a_failed_job_reports_a_failing_case_and_keeps_no_archive() -> None:
    svc = website()
    svc.runner.set_outcome("test", status="failed", failure_reason="script_failure")
    svc.runner.set_outcome("build", status="failed", project="acme/website")
    pipeline = run_website(svc)
    build = website_job(svc, pipeline["id"], "build")
    assert build["status"] == "failed" and "artifacts_file" not in build  # when: on_success
    test = website_job(svc, pipeline["id"], "test")
    assert test["status"] == "skipped"
    svc.runner.set_outcome("build", status="success", project="acme/website")
    second = run_website(svc)
    report = body(call(svc, "GET", f"/projects/{WEBSITE}/pipelines/{second['id']}/test_report"))
    assert report["failed_count"] == 1 and report["success_count"] == 0
    (case,) = report["test_suites"][0]["test_cases"]
    assert case == {
        "status": "failed",
        "name": "test",
        "classname": "test",
        "execution_time": 0.0,
        "system_output": "Job test failed: script_failure",
        "stack_trace": None,
    }


def test_scripted_artifacts_keep_full_control() -> None:
    svc = website()
    svc.runner.set_outcome("build", artifacts={"public/app.js": "app()"})
    svc.runner.set_outcome("test", artifacts={})
    pipeline = run_website(svc)
    build = website_job(svc, pipeline["id"], "build")
    archive = call(svc, "GET", f"/projects/{WEBSITE}/jobs/{build['id']}/artifacts").body
    assert zipfile.ZipFile(io.BytesIO(archive)).namelist() == ["public/", "public/app.js"]
    test = website_job(svc, pipeline["id"], "test")
    assert [a["file_type"] for a in test["artifacts"]] == ["trace"]
    summary = body(
        call(svc, "GET", f"/projects/{WEBSITE}/pipelines/{pipeline['id']}/test_report_summary")
    )
    assert summary["total"]["count"] == 0 and summary["test_suites"] == []


def test_explicit_finish_artifacts_replace_the_defaults() -> None:
    svc = website()
    pipeline = body(call(svc, "POST", f"/projects/{WEBSITE}/pipeline", json_body={"ref": "main"}))
    build = website_job(svc, pipeline["id"], "build")
    finished = call(
        svc,
        "POST",
        f"/_fake/ci/jobs/{build['id']}/finish",
        None,
        json_body={"artifacts": {"public/given.txt": "given"}},
    )
    assert finished.status == 200
    archive = call(svc, "GET", f"/projects/{WEBSITE}/jobs/{build['id']}/artifacts").body
    assert zipfile.ZipFile(io.BytesIO(archive)).namelist() == ["public/", "public/given.txt"]
    test = website_job(svc, pipeline["id"], "test")
    call(svc, "POST", f"/_fake/ci/jobs/{test['id']}/finish", None, json_body={})
    assert [a["file_type"] for a in website_job(svc, pipeline["id"], "test")["artifacts"]] == [
        "trace",
        "junit",
    ]


def test_globs_files_and_exclusions(svc: FakeService) -> None:
    commit_file(
        svc,
        ".gitlab-ci.yml",
        "pack:\n  script: [x]\n  artifacts:\n"
        "    paths: [dist/*.whl, notes.md, 'coverage/', '$CI_PROJECT_DIR/skipped']\n"
        "    exclude: [coverage/**]\n"
        "    reports: {junit: [reports/a.xml, reports/b.xml]}\n",
    )
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    pack = job_named(svc, created["id"], "pack")
    archive = call(svc, "GET", f"/projects/{PROJECT}/jobs/{pack['id']}/artifacts").body
    zipped = zipfile.ZipFile(io.BytesIO(archive))
    assert zipped.namelist() == ["dist/", "dist/pack.whl", "notes.md"]
    assert zipped.read("notes.md").decode().startswith("Made by job pack (#")
    report = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/test_report"))
    names = [case["name"] for case in report["test_suites"][0]["test_cases"]]
    assert sorted(names) == ["pack (reports/a.xml)", "pack (reports/b.xml)"]


def test_default_artifacts_are_byte_identical_across_services() -> None:
    def run() -> list[bytes]:
        svc = website()
        pipeline = run_website(svc)
        build = website_job(svc, pipeline["id"], "build")
        test = website_job(svc, pipeline["id"], "test")
        record = jobs(svc.store).rows[test["id"]]
        return [
            call(svc, "GET", f"/projects/{WEBSITE}/jobs/{build['id']}/artifacts").body,
            jobs(svc.store).rows[build["id"]].metadata or b"",
            record.junit_gz or b"",
            call(svc, "GET", f"/projects/{WEBSITE}/pipelines/{pipeline['id']}/test_report").body,
            call(svc, "GET", f"/projects/{WEBSITE}/jobs/{build['id']}").body,
        ]

    first, second = run(), run()
    assert first == second and all(first)


def test_python_gitlab_reads_default_artifacts_and_reports() -> None:
    svc = new_service()
    commit_file(
        svc,
        ".gitlab-ci.yml",
        "site:\n  script: [x]\n  artifacts:\n    paths: [public/]\n"
        "    reports: {junit: junit.xml}\n",
    )
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="root-token")
        project = gl.projects.get("acme/pipes")
        pipeline = project.pipelines.create({"ref": "main"})
        svc.runner.run_all(pipeline.id)
        (listed,) = pipeline.jobs.list(get_all=True)
        job = project.jobs.get(listed.id)
        zipped = zipfile.ZipFile(io.BytesIO(job.artifacts()))
        assert zipped.namelist() == ["public/", "public/index.html"]
        page = project.artifacts.raw("main", "public/index.html", "site")
        assert page == zipped.read("public/index.html")
        summary = pipeline.test_report_summary.get()
        assert summary.total["count"] == 1 and summary.total["success"] == 1
        report = pipeline.test_report.get()
        assert report.test_suites[0]["test_cases"][0]["name"] == "site"
    assert svc.server_errors == []


def test_job_names_are_escaped_in_the_default_files(svc: FakeService) -> None:
    name = 'unit "fast" & <safe> ünïcode'
    commit_file(
        svc,
        ".gitlab-ci.yml",
        f"'{name}':\n  script: [x]\n  artifacts:\n    paths: [out/*.html]\n"
        "    reports: {junit: junit.xml}\n",
    )
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    job = job_named(svc, created["id"], name)
    zipped = zipfile.ZipFile(
        io.BytesIO(call(svc, "GET", f"/projects/{PROJECT}/jobs/{job['id']}/artifacts").body)
    )
    page_name = "out/unit-fast-safe-n-code.html"
    assert zipped.namelist() == ["out/", page_name]
    page = zipped.read(page_name).decode()
    assert '<title>unit "fast" &amp; &lt;safe&gt; ünïcode</title>' in page
    report = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/test_report"))
    assert report["test_suites"][0]["test_cases"][0]["name"] == name
