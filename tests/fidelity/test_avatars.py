"""Issue 12: avatars of users, groups and projects (the ``avatar`` multipart file) are
stored, named by ``avatar_url`` and served; bad files are model validation errors."""

from __future__ import annotations

import io

import gitlab
import pytest
import requests
from support.calls import ROOT
from support.services import stamp

from fakeservice import FakeService
from fakeservice.web.dispatch import dispatch
from fakeservice.web.http import Request, Response

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32
BOUNDARY = "fakeboundary"


def fetch(svc: FakeService, url: str) -> Response:
    return dispatch(svc, Request.build("GET", url.removeprefix(svc.url)))


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


def multipart(fields: dict[str, str], file_name: str, data: bytes) -> tuple[bytes, dict[str, str]]:
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts.append(
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="avatar"; '
        f'filename="{file_name}"\r\nContent-Type: image/png\r\n\r\n'.encode()
        + data
        + b"\r\n"
    )
    body = b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}


def send(
    svc: FakeService,
    method: str,
    target: str,
    /,
    file_name: str = "me.png",
    data: bytes = PNG,
    **fields: str,
) -> Response:
    body, headers = multipart(fields, file_name, data)
    return svc.request(method, target, body=body, headers=headers, token=ROOT)


@pytest.mark.parametrize(
    ("path", "kind", "record_id"),
    [("/users/2", "user", 2), ("/groups/acme", "group", 0), ("/projects/1", "project", 1)],
)
def test_an_avatar_is_stored_and_served(
    svc: FakeService, path: str, kind: str, record_id: int
) -> None:
    response = send(svc, "PUT", path, file_name="../../etc/me pic.png")
    assert response.status == 200
    url = response.json()["avatar_url"]
    record_id = record_id or response.json()["id"]
    assert url == f"{svc.url}/uploads/-/system/{kind}/avatar/{record_id}/me_pic.png"
    assert svc.request("GET", path, token=ROOT).json()["avatar_url"] == url
    served = fetch(svc, url)
    assert (served.status, served.body, served.header("Content-Type")) == (200, PNG, "image/png")


def test_a_new_avatar_replaces_the_old_one(svc: FakeService) -> None:
    first = send(svc, "PUT", "/projects/1", file_name="a.png").json()["avatar_url"]
    second = send(svc, "PUT", "/projects/1", file_name="b.gif", data=b"GIF89a").json()["avatar_url"]
    assert fetch(svc, first).status == 404
    served = fetch(svc, second)
    assert (served.body, served.header("Content-Type")) == (b"GIF89a", "image/gif")


def test_created_records_get_their_avatar(svc: FakeService) -> None:
    group = send(svc, "POST", "/groups", name="pics", path="pics")
    assert group.status == 201
    expected = f"/uploads/-/system/group/avatar/{group.json()['id']}/me.png"
    assert group.json()["avatar_url"].endswith(expected)
    project = send(svc, "POST", "/projects", name="pic")
    assert project.json()["avatar_url"].endswith("/me.png")


@pytest.mark.parametrize(
    ("file_name", "data", "message"),
    [
        (
            "me.exe",
            PNG,
            "file format is not supported. Please try one of the following "
            "supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp",
        ),
        ("me.png", b"x" * (200 * 1024 + 1), "is too big (should be at most 200 KiB)"),
    ],
)
def test_bad_avatars_are_refused(
    svc: FakeService, file_name: str, data: bytes, message: str
) -> None:
    before = svc.request("GET", "/projects/1", token=ROOT).json()
    response = send(svc, "PUT", "/projects/1", file_name=file_name, data=data, description="new")
    assert (response.status, response.json()) == (400, {"message": {"avatar": [message]}})
    assert svc.request("GET", "/projects/1", token=ROOT).json() == before


def test_an_avatar_that_is_not_a_file_is_invalid(svc: FakeService) -> None:
    response = svc.request("PUT", "/projects/1", json_body={"avatar": "x.png"}, token=ROOT)
    assert (response.status, response.json()) == (400, {"error": "avatar is invalid"})


def test_unknown_avatars_are_404(svc: FakeService) -> None:
    assert fetch(svc, "/uploads/-/system/user/avatar/2/none.png").status == 404


def test_python_gitlab_uploads_avatars(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        project = gl.projects.get(1)
        project.avatar = io.BytesIO(PNG)
        project.save()
        assert gl.projects.get(1).avatar_url.startswith(f"{url}/uploads/-/system/project/avatar/1/")
        group = gl.groups.get("acme")
        group.avatar = io.BytesIO(PNG)
        group.save()
        fetched = gl.groups.get("acme").avatar_url
        assert fetched == f"{url}/uploads/-/system/group/avatar/{group.id}/avatar.png"
        assert requests.get(fetched, timeout=10).content == PNG
