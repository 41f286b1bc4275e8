"""Project export over raw HTTP and python-gitlab: the export machine through every state
(timed, manual and instant), the status with ``_links`` only when finished, the download,
the real gzip tar (a git bundle git itself can clone, the settings, the members), uploads
pushed with httpx, and the service's 404 bodies."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import gitlab
import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import ALICE, Recorder, background, exported

EXPORT = "/projects/1/export"


def status(svc: FakeService) -> dict:
    return body(call(svc, "GET", EXPORT))


def test_status_before_any_export(svc: FakeService) -> None:
    project = body(call(svc, "GET", "/projects/1"))
    naming = ("id", "description", "name", "name_with_namespace", "path", "path_with_namespace")
    assert status(svc) == {
        **{key: project[key] for key in naming},
        "created_at": "2026-01-01T09:00:00Z",
        "export_status": "none",
    }
    missing = call(svc, "GET", EXPORT + "/download")
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found or has expired"})


def test_timed_export_walks_every_state(svc: FakeService) -> None:
    background(svc, mode="timed", step_seconds=5)
    accepted = call(svc, "POST", EXPORT, json_body={"description": "Snapshot"})
    assert (accepted.status, body(accepted)) == (202, {"message": "202 Accepted"})
    first = status(svc)
    assert (first["export_status"], first["description"]) == ("queued", "Snapshot")
    assert "_links" not in first
    early = call(svc, "GET", EXPORT + "/download")
    assert (early.status, body(early)) == (
        404,
        {"message": "The project export file is not available yet"},
    )
    svc.advance_clock(seconds=5)
    assert status(svc)["export_status"] == "started"
    svc.advance_clock(seconds=5)
    done = status(svc)
    assert done["export_status"] == "finished"
    assert done["_links"] == {
        "api_url": "http://fakeservice.test/api/v4/projects/1/export/download",
        "web_url": "http://fakeservice.test/acme/website/download_export",
    }
    download = call(svc, "GET", EXPORT + "/download")
    assert download.header("content-type") == "application/gzip"
    assert download.header("content-disposition") == (
        'attachment; filename="2026-01-01_09-00-000_acme_website_export.tar.gz"'
    )
    # a new export over the old file: regeneration in progress, the old file still served
    call(svc, "POST", EXPORT)
    assert status(svc)["export_status"] == "regeneration_in_progress"
    assert call(svc, "GET", EXPORT + "/download").body == download.body
    svc.advance_clock(seconds=10)
    assert status(svc)["export_status"] == "finished"


def test_manual_export_is_driven_from_the_control_plane(svc: FakeService) -> None:
    background(svc, mode="manual")
    call(svc, "POST", EXPORT)
    svc.advance_clock(hours=1)
    control = "/_fake/exports/1"
    assert body(call(svc, "GET", control, None))["events"] == ["start", "fail"]
    started = call(svc, "POST", control + "/fire", None, json_body={"event": "start"})
    assert body(started)["export_status"] == "started"
    assert call(svc, "POST", control + "/fire", None, json_body={"event": "queue"}).status == 409
    failed = body(call(svc, "POST", control + "/fire", None, json_body={"event": "fail"}))
    assert (failed["export_status"], failed["machine_state"]) == ("failed", "failed")
    assert call(svc, "GET", EXPORT + "/download").status == 404
    assert call(svc, "POST", EXPORT).status == 202
    assert status(svc)["export_status"] == "queued"


def test_archive_is_a_real_gzip_tar(svc: FakeService, tmp_path: Path) -> None:
    data = exported(svc)
    assert data[:2] == b"\x1f\x8b"
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(data))) as tar:
        names = tar.getnames()
        files = {name: tar.extractfile(name).read() for name in names}  # type: ignore[union-attr]
    assert names == [
        "VERSION",
        "project.bundle",
        "tree/project.json",
        "tree/project/ci_pipeline_schedules.ndjson",
        "tree/project/issues.ndjson",
        "tree/project/labels.ndjson",
        "tree/project/merge_requests.ndjson",
        "tree/project/milestones.ndjson",
        "tree/project/project_members.ndjson",
    ]
    assert files["VERSION"] == b"0.2.4"
    settings = json.loads(files["tree/project.json"])
    assert (settings["name"], settings["visibility"], settings["default_branch"]) == (
        "Website",
        "public",
        "main",
    )
    assert files["project.bundle"].startswith(b"# v2 git bundle\n")
    if shutil.which("git"):
        (tmp_path / "p.bundle").write_bytes(files["project.bundle"])
        clone = subprocess.run(
            ["git", "clone", "-q", str(tmp_path / "p.bundle"), str(tmp_path / "work")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert clone.returncode == 0, clone.stderr
        assert (tmp_path / "work" / "README.md").read_text().startswith("# Website")


def test_same_state_same_bytes(svc: FakeService) -> None:
    other = FakeService.from_template(svc.template())
    assert exported(svc) == exported(other)


def test_upload_pushes_the_archive(svc: FakeService, recorder: Recorder) -> None:
    for method in ("PUT", "POST"):
        upload = {"url": f"{recorder.url}/bucket/{method}", "http_method": method}
        assert call(svc, "POST", EXPORT, json_body={"upload": upload}).status == 202
        assert status(svc)["export_status"] == "finished"
    assert [(r["method"], r["path"], r["content_type"]) for r in recorder.received] == [
        ("PUT", "/bucket/PUT", "application/gzip"),
        ("POST", "/bucket/POST", "application/gzip"),
    ]
    assert recorder.received[0]["body"] == call(svc, "GET", EXPORT + "/download").body
    recorder.status = 403
    call(svc, "POST", EXPORT, json_body={"upload": {"url": recorder.url + "/denied"}})
    assert status(svc)["export_status"] == "failed"
    form = call(
        svc, "POST", EXPORT, data={"upload[url]": recorder.url, "upload[http_method]": "PUT"}
    )
    assert form.status == 202


@pytest.mark.parametrize(
    ("upload", "error"),
    [
        ({"http_method": "PUT"}, "upload[url] is missing"),
        (
            {"url": "http://x", "http_method": "PATCH"},
            "upload[http_method] does not have a valid value",
        ),
        ("http://x", "upload is invalid"),
    ],
)
def test_upload_validation(svc: FakeService, upload: object, error: str) -> None:
    answer = call(svc, "POST", EXPORT, json_body={"upload": upload})
    assert (answer.status, body(answer)) == (400, {"error": error})
    assert status(svc)["export_status"] == "none"


def test_permissions(svc: FakeService) -> None:
    assert call(svc, "POST", EXPORT, None).status == 401
    denied = call(svc, "POST", "/projects/acme%2Fplatform%2Fapi/export", "carol-token")
    assert (denied.status, body(denied)) == (403, {"message": "403 Forbidden"})
    hidden = call(svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault/export", "carol-token")
    assert (hidden.status, body(hidden)) == (404, {"message": "404 Project Not Found"})
    assert call(svc, "POST", EXPORT, ALICE).status == 202


def test_python_gitlab_export_refresh_download(svc: FakeService) -> None:
    background(svc, mode="timed", step_seconds=1)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        project = gl.projects.get("acme/website")
        export = project.exports.create({"description": "via python-gitlab"})
        export.refresh()
        assert export.export_status == "queued"
        while export.export_status != "finished":
            svc.advance_clock(seconds=1)
            export.refresh()
        assert export.description == "via python-gitlab"
        data = export.download()
        assert isinstance(data, bytes) and data[:2] == b"\x1f\x8b"
