"""``svc.app`` is a Starlette application: the API mounted as the raw dispatch, the
control plane, git smart HTTP and the fallback around it, and it mounts inside another
Starlette application (tested with Starlette's TestClient, raw HTTP and python-gitlab)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import gitlab
import httpx
import pytest
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from fakeservice import FakeService
from fakeservice.testing.server import listening_socket
from fakeservice.web.app import FakeApp
from tests.app.client import TestClient

ROOT = {"PRIVATE-TOKEN": "root-token"}


@pytest.fixture
def svc() -> FakeService:
    return FakeService()


def parent_app(svc: FakeService) -> Starlette:
    async def home(request: object) -> PlainTextResponse:
        return PlainTextResponse("the user's own app")

    return Starlette(routes=[Route("/", home), Mount("/gitlab", app=svc.app)])


def test_the_app_is_a_starlette_application_serving_its_service(svc: FakeService) -> None:
    assert isinstance(svc.app, Starlette)
    assert isinstance(svc.app, FakeApp)
    assert svc.app.service is svc
    names = [getattr(route, "name", None) for route in svc.app.routes]
    assert names[0] == "api"
    assert {"control", "oauth", "dashboard", "events", "info/refs", "fallback"} <= set(names)


def test_api_routes_on_the_raw_path(svc: FakeService) -> None:
    with TestClient(svc.app) as client:
        project = client.get("/api/v4/projects/acme%2Fwebsite", headers=ROOT)
        assert project.status_code == 200
        assert project.json()["path_with_namespace"] == "acme/website"
        # the clock's time, not the wall clock's
        assert project.headers["date"] == "Thu, 01 Jan 2026 09:00:00 GMT"
        raw = client.get(
            "/api/v4/projects/acme%2Fwebsite/repository/files/README.md/raw?ref=main",
            headers=ROOT,
        )
        assert raw.status_code == 200
        paged = client.get("/api/v4/users?per_page=5&page=2", headers=ROOT)
        assert (paged.headers["x-page"], paged.headers["x-per-page"]) == ("2", "5")
        assert 'rel="next"' in paged.headers["link"]
    assert svc.journal.count(method="GET") == 3


def test_service_errors_keep_the_service_bodies(svc: FakeService) -> None:
    with TestClient(svc.app) as client:
        missing = client.get("/no/such/page")
        assert (missing.status_code, missing.json()) == (404, {"error": "404 Not Found"})
        assert client.get("/api/v4/nope", headers=ROOT).json() == {"error": "404 Not Found"}
        wrong = client.delete("/api/v4/version", headers=ROOT)
        assert wrong.status_code == 405
        unauth = client.get("/api/v4/user")
        assert (unauth.status_code, unauth.json()) == (401, {"message": "401 Unauthorized"})
        bad = client.post(
            "/api/v4/projects",
            headers={**ROOT, "Content-Type": "application/json"},
            content=b"{not json",
        )
        assert bad.status_code == 400
    assert svc.server_errors == []


def test_control_plane_oauth_and_git_are_served(svc: FakeService) -> None:
    with TestClient(svc.app) as client:
        moved = client.post("/_fake/clock", json={"seconds": 60})
        assert moved.json()["now"] == "2026-01-01T09:01:00Z"
        token = client.post(
            "/oauth/token",
            data={
                "grant_type": "password",
                "username": "root",
                "password": "correct-horse-battery",
            },
        )
        assert token.status_code == 200 and token.json()["token_type"] == "Bearer"
        refs = client.get("/acme/website.git/info/refs?service=git-upload-pack")
        assert refs.status_code == 200
        assert refs.headers["content-type"] == "application/x-git-upload-pack-advertisement"
        private = client.get("/acme/secret-ops/vault.git/info/refs?service=git-upload-pack")
        assert private.status_code == 401
        assert private.headers["www-authenticate"] == 'Basic realm="GitLab"'


def test_middleware_added_by_the_user_sees_api_requests(svc: FakeService) -> None:
    seen: list[str] = []

    class Tag:
        def __init__(self, app: ASGIApp) -> None:
            self.app = app

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http":
                seen.append(scope["path"])
            await self.app(scope, receive, send)

    svc.app.add_middleware(Tag)
    with TestClient(svc.app) as client:
        assert client.get("/api/v4/projects/acme%2Fwebsite", headers=ROOT).status_code == 200
        assert client.get("/_fake/clock").status_code == 200
    assert seen == ["/api/v4/projects/acme/website", "/_fake/clock"]


def test_lifespan_is_starlettes(svc: FakeService) -> None:
    with TestClient(svc.app) as client:  # the context manager runs startup and shutdown
        assert client.get("/_fake/clock").status_code == 200


def test_mounted_inside_a_parent_starlette_app(svc: FakeService) -> None:
    with TestClient(parent_app(svc)) as client:
        assert client.get("/").text == "the user's own app"
        project = client.get("/gitlab/api/v4/projects/acme%2Fwebsite", headers=ROOT)
        assert project.status_code == 200
        assert project.json()["id"] == 1
        branch = client.get(
            "/gitlab/api/v4/projects/acme%2Fwebsite/repository/branches/main", headers=ROOT
        )
        assert branch.json()["name"] == "main"
        assert branch.json()["web_url"].startswith("http://testserver/gitlab/acme/website/")
        paged = client.get("/gitlab/api/v4/users?per_page=5", headers=ROOT)
        assert "<http://testserver/gitlab/api/v4/users?" in paged.headers["link"]
        assert client.get("/gitlab/nowhere").json() == {"error": "404 Not Found"}
        assert client.get("/gitlab/_fake/clock").json()["mode"] == "manual"
        page = client.get("/gitlab/_fake/dashboard")
        assert page.status_code == 200 and "<title>fakeservice dashboard</title>" in page.text
        refs = client.get("/gitlab/acme/website.git/info/refs?service=git-upload-pack")
        assert refs.status_code == 200
    # the fake saw its own paths, without the parent's prefix
    assert [e.path for e in svc.journal.entries()] == [
        "/api/v4/projects/acme%2Fwebsite",
        "/api/v4/projects/acme%2Fwebsite/repository/branches/main",
        "/api/v4/users",
        "/nowhere",
        "/acme/website.git/info/refs",
    ]


@contextmanager
def served(app: Starlette) -> Iterator[str]:
    sock = listening_socket("127.0.0.1", 0)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def test_python_gitlab_through_the_parent_app(svc: FakeService) -> None:
    with served(parent_app(svc)) as url:
        assert httpx.get(url + "/").text == "the user's own app"
        gl = gitlab.Gitlab(url + "/gitlab", private_token="root-token")
        gl.auth()
        assert gl.user is not None and gl.user.username == "root"
        project = gl.projects.get("acme/website")
        assert project.path_with_namespace == "acme/website"
        assert [b.name for b in project.branches.list(get_all=True)] == [
            "feature/dark-mode",
            "main",
        ]
        pipeline = project.pipelines.create({"ref": "main"})
        assert pipeline.status in ("created", "pending")
        assert len(gl.users.list(get_all=True)) == svc.store.tables["users"].__len__()


def test_python_gitlab_against_the_live_server(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="root-token")
        projects = gl.projects.list(per_page=5, page=1)
        assert len(projects) == 5
        assert gl.projects.get("acme/website").id == 1
        raw = httpx.get(url + "/api/v4/projects/acme%2Fwebsite", headers=ROOT)
        assert raw.headers["date"] == "Thu, 01 Jan 2026 09:00:00 GMT"
        assert "server" not in raw.headers


SEGMENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=12)
QUERIES = st.sampled_from(
    [
        "/api/v4/projects/acme%2Fwebsite",
        "/api/v4/projects?per_page=3&page=2",
        "/api/v4/users/alice",
        "/api/v4/groups/acme%2Fplatform",
        "/api/v4/projects/acme%2Fwebsite/repository/branches?per_page=1",
        "/api/v4/nope",
        "/_fake/clock",
    ]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prefix=st.lists(SEGMENT, min_size=1, max_size=3), path=QUERIES)
def test_mounted_anywhere_the_fake_answers_as_at_the_root(prefix: list[str], path: str) -> None:
    """Under any mount path, the same answer as unmounted, its links under the mount."""
    mount = "/" + "/".join(prefix)
    direct, nested = FakeService.from_template(TEMPLATE), FakeService.from_template(TEMPLATE)
    parent = Starlette(routes=[Mount(mount, app=nested.app)])
    with TestClient(direct.app) as plain, TestClient(parent) as mounted:
        expected = plain.get(path, headers=ROOT)
        found = mounted.get(mount + path, headers=ROOT)
    assert found.status_code == expected.status_code
    root, under = "http://testserver", f"http://testserver{mount}"
    assert found.text == expected.text.replace(root, under)
    assert found.headers.get("link") == (
        expected.headers["link"].replace(root, under) if "link" in expected.headers else None
    )
    assert [e.path for e in nested.journal.entries()] == [e.path for e in direct.journal.entries()]


TEMPLATE = FakeService().template()
