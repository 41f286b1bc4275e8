"""Attachments of a group wiki (``POST /groups/:id/wikis/attachments``): stored in the
group wiki's repository, over raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
from support.calls import body, call_as

from fakeservice import FakeService
from fakeservice.web.http import Response
from fakeservice.wikis.models import wiki_of

DOCS = "/groups/docs/wikis"


def _upload(svc: FakeService, who: str, name: str, data: bytes) -> Response:
    payload = (
        b'--XX\r\nContent-Disposition: form-data; name="file"; filename="'
        + name.encode()
        + b'"\r\nContent-Type: application/octet-stream\r\n\r\n'
        + data
        + b"\r\n--XX--\r\n"
    )
    return svc.request(
        "POST",
        f"{DOCS}/attachments",
        token=f"{who}-token",
        body=payload,
        headers={"Content-Type": "multipart/form-data; boundary=XX"},
    )


def test_group_attachment(svc: FakeService) -> None:
    answer = _upload(svc, "dan", "plan.png", b"PNG")
    assert answer.status == 201
    made = body(answer)
    path = made["file_path"]
    assert path.startswith("uploads/") and len(path.split("/")[1]) == 32
    assert made == {
        "file_name": "plan.png",
        "file_path": path,
        "branch": "main",
        "link": {"url": path, "markdown": f"![plan]({path})"},
    }
    group = body(call_as(svc, "GET", "/groups/docs", "root"))
    assert wiki_of(svc.store, "group", group["id"]).repo.raw("HEAD", path) == b"PNG"
    assert _upload(svc, "otto", "x.png", b"x").status in (403, 404)


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="dan-token", session=svc.requests_session()
    )
    page = gl.groups.get("docs").wikis.get("handbook")
    uploaded = page.upload("notes.txt", filedata=b"hello")
    assert uploaded["file_name"] == "notes.txt"
    assert uploaded["link"]["markdown"] == f"[notes.txt]({uploaded['file_path']})"
