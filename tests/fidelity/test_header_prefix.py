"""Issue 12, item 4: the vendor header prefix is a service setting (``FakeService``
argument, ``serve --header-prefix``, scenario key ``header_prefix``), ``X-Service-`` by
default as in the spec."""

from __future__ import annotations

import subprocess
import sys

import gitlab
import pytest
from support.services import track

from fakeservice import FakeService
from fakeservice.scenarios.check import check
from fakeservice.web.vendor_headers import HeaderPrefixError

FILE = "/projects/acme%2Fwebsite/repository/files/README.md?ref=main"
SCENARIO = {"extends": "default", "header_prefix": "X-Gitlab-"}


def vendor_headers(svc: FakeService) -> list[str]:
    response = svc.request("HEAD", FILE, token="root-token")
    assert response.status == 200
    return [name for name, _ in response.headers if name.lower().startswith("x-")]


def test_the_default_is_the_spec_prefix() -> None:
    names = vendor_headers(track(FakeService()))
    assert "X-Service-File-Name" in names
    assert not any(name.startswith("X-Gitlab-") for name in names)


def test_the_argument_chooses_the_prefix_and_survives_reset() -> None:
    svc = track(FakeService(header_prefix="X-Gitlab-"))
    names = vendor_headers(svc)
    assert names[:3] == ["X-Gitlab-File-Name", "X-Gitlab-File-Path", "X-Gitlab-Size"]
    assert not any(name.startswith("X-Service-") for name in names)
    svc.reset()
    assert vendor_headers(svc)[0] == "X-Gitlab-File-Name"
    assert svc.request("GET", "/users?per_page=1", token="root-token").header("X-Per-Page") == "1"


def test_the_scenario_key_chooses_the_prefix() -> None:
    svc = track(FakeService(SCENARIO))
    assert vendor_headers(svc)[0] == "X-Gitlab-File-Name"
    assert (
        track(FakeService(SCENARIO, header_prefix="X-Acme-"))
        .request("HEAD", FILE, token="root-token")
        .header("X-Acme-Size")
        == "39"
    )


def test_python_gitlab_reads_the_vendor_headers() -> None:
    svc = track(FakeService(header_prefix="X-Gitlab-"))
    gl = gitlab.Gitlab(svc.url, private_token="root-token", session=svc.requests_session())
    headers = gl.projects.get("acme/website").files.head("README.md", ref="main")
    assert headers["X-Gitlab-File-Path"] == "README.md"
    assert headers["x-gitlab-size"] == "39"


@pytest.mark.parametrize("prefix", ["X-Gitlab", "X Gitlab-", "", "X-\r\nEvil-"])
def test_a_bad_prefix_is_refused(prefix: str) -> None:
    with pytest.raises(HeaderPrefixError):
        FakeService(None, header_prefix=prefix)
    problems = check({"header_prefix": prefix})
    assert [p.where for p in problems] == ["header_prefix"]


def test_serve_refuses_a_bad_prefix() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fakeservice.cli", "serve", "--port", "0", "--header-prefix", "bad"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "header prefix" in done.stderr
