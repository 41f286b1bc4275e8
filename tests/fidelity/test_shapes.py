"""Issue 12, item 5: ``detailed_status`` on pipelines and jobs, and ``message_html`` on
user statuses rendering the markdown, through raw HTTP and python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService
from fakeservice.users.markdown import render_inline

WEBSITE = "/projects/acme%2Fwebsite"
KEYS = [
    "icon",
    "text",
    "label",
    "group",
    "tooltip",
    "has_details",
    "details_path",
    "illustration",
    "favicon",
]


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


def test_pipeline_detailed_status_follows_the_status(svc: FakeService) -> None:
    created = call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": "main"}).json()
    status = created["detailed_status"]
    assert list(status)[:9] == KEYS
    assert (status["icon"], status["group"], status["text"]) == (
        "status_pending",
        "pending",
        "Pending",
    )
    assert status["details_path"] == f"/acme/website/-/pipelines/{created['id']}"
    svc.runner.run_all(created["id"])
    done = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}").json()["detailed_status"]
    assert done == {
        "icon": "status_success",
        "text": "Passed",
        "label": "passed",
        "group": "success",
        "tooltip": "passed",
        "has_details": True,
        "details_path": f"/acme/website/-/pipelines/{created['id']}",
        "illustration": None,
        "favicon": "/assets/ci_favicons/favicon_status_success.png",
    }


def test_job_detailed_status_and_actions(svc: FakeService) -> None:
    created = call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": "main"}).json()
    jobs = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}/jobs").json()
    pending = next(j for j in jobs if j["status"] == "pending")["detailed_status"]
    assert pending["action"]["title"] == "Cancel"
    assert pending["action"]["path"].endswith("/cancel")
    svc.runner.run_all(created["id"])
    jobs = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}/jobs").json()
    by_status: dict[str, Any] = {j["status"]: j for j in jobs}
    success = by_status["success"]["detailed_status"]
    assert (success["label"], success["action"]["icon"]) == ("passed", "retry")
    assert success["details_path"] == f"/acme/website/-/jobs/{by_status['success']['id']}"
    manual = by_status["manual"]["detailed_status"]
    assert (manual["label"], manual["action"]["title"], manual["action"]["method"]) == (
        "manual action",
        "Run",
        "post",
    )


def test_a_failed_job_names_its_reason(svc: FakeService) -> None:
    svc.runner.set_outcome("test", status="failed", failure_reason="script_failure")
    created = call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": "main"}).json()
    svc.runner.run_all(created["id"])
    jobs = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}/jobs").json()
    failed = next(j for j in jobs if j["status"] == "failed")["detailed_status"]
    assert (failed["group"], failed["tooltip"]) == ("failed", "failed - (script failure)")
    pipeline = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}").json()
    assert pipeline["detailed_status"]["group"] == "failed"


def test_python_gitlab_reads_detailed_status(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    project = gl.projects.get("acme/website")
    pipeline = project.pipelines.create({"ref": "main"})
    assert project.pipelines.get(pipeline.id).detailed_status["group"] == "pending"
    job = project.jobs.list(get_all=False)[0]
    assert "icon" in job.detailed_status


@pytest.mark.parametrize(
    ("message", "html"),
    [
        ("Out **sick**", "Out <strong>sick</strong>"),
        (
            "on _leave_ see [wiki](https://wiki.test/a?b&c)",
            'on <em>leave</em> see <a href="https://wiki.test/a?b&amp;c" '
            'rel="nofollow noreferrer noopener" target="_blank">wiki</a>',
        ),
        ("<b>x</b> & `y`", "&lt;b&gt;x&lt;/b&gt; &amp; <code>y</code>"),
        ("[bad](javascript:alert(1))", "[bad](javascript:alert(1))"),
    ],
)
def test_status_message_html_renders_markdown(svc: FakeService, message: str, html: str) -> None:
    response = call(svc, "PUT", "/user/status", "alice-token", json_body={"message": message})
    assert response.json()["message_html"] == html
    assert call(svc, "GET", "/users/alice/status", None).json()["message_html"] == html


def test_python_gitlab_status_message_html(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="alice-token", session=svc.requests_session())
    gl.auth()
    status = gl.user.status.get()
    status.message = "*here*"
    status.save()
    assert gl.user.status.get().message_html == "<em>here</em>"


def test_the_renderer_never_lets_html_through() -> None:
    assert "<" not in render_inline("<img src=x onerror=alert(1)>").replace("&lt;", "")
