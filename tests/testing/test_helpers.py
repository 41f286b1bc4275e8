"""Helpers behind the fixtures: the per-process scenario cache, respx routing, the live
server, and templates."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import httpx
import pytest
import respx

from fakeservice import FakeService
from fakeservice.testing import route_to_service, service_for
from fakeservice.testing.templates import resolve, template_for


def test_resolve_search_order(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "s.yaml").write_text("users: []\n")
    assert resolve("s", [tmp_path / "a", tmp_path / "b"]) == (tmp_path / "b" / "s.yaml").resolve()
    assert resolve("s.yaml", [tmp_path / "b"]) == (tmp_path / "b" / "s.yaml").resolve()
    assert resolve("default", [tmp_path]).name == "default.yaml"


def test_templates_are_cached_and_rebuilt_when_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("users: [{username: one}]\n")
    first = template_for(path)
    assert template_for(path) is first
    path.write_text("users: [{username: one}, {username: two}]\n")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert template_for(path) is not first


def test_stamped_services_are_independent() -> None:
    one, two = service_for("default"), service_for("default")
    one.request("POST", "/projects", token="root-token", json_body={"name": "mine"})
    assert two.request("GET", "/projects/root%2Fmine", token="root-token").status == 404
    assert one.journal is not two.journal


def test_template_keeps_scenario_faults_and_reset_point() -> None:
    source = FakeService(
        {"extends": "default", "faults": [{"path": "/version", "status": 502, "times": 1}]}
    )
    copy = FakeService.from_template(source.template())
    assert copy.request("GET", "/version", token="root-token").status == 502
    copy.request("POST", "/projects", token="root-token", json_body={"name": "p"})
    copy.reset()
    assert copy.request("GET", "/projects/root%2Fp", token="root-token").status == 404
    assert copy.request("GET", "/version", token="root-token").status == 502


def test_respx_routes_sync_and_async_clients(fake_service: FakeService) -> None:
    with respx.mock(assert_all_called=False) as router:
        route = route_to_service(router, fake_service)
        with httpx.Client() as client:
            answer = client.get(
                "http://fakeservice.test/api/v4/user", headers={"PRIVATE-TOKEN": "root-token"}
            )
        assert answer.json()["username"] == "root"

        async def fetch() -> int:
            async with httpx.AsyncClient() as client:
                found = await client.get("http://fakeservice.test/api/v4/version")
                return found.status_code

        assert asyncio.run(fetch()) == 401
        assert route.call_count == 2
        with pytest.raises(respx.models.AllMockedAssertionError):
            httpx.get("http://fakeservice.test.evil/api/v4/user")


def test_respx_with_another_base_url(fake_service: FakeService) -> None:
    with respx.mock(assert_all_called=False) as router:
        route_to_service(router, fake_service, base_url="https://gitlab.example.com")
        found = httpx.get("https://gitlab.example.com/api/v4/projects/acme%2Fwebsite")
    assert found.json()["web_url"] == "https://gitlab.example.com/acme/website"


def test_live_server_serves_the_control_plane(fake_server) -> None:  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=fake_server.url) as client:
        assert (
            client.post("/_fake/clock", json={"seconds": 60}).json()["now"]
            == "2026-01-01T09:01:00Z"
        )
        client.post("/_fake/faults", json={"path": "/version", "status": 503, "times": 1})
        assert (
            client.get("/api/v4/version", headers={"PRIVATE-TOKEN": "root-token"}).status_code
            == 503
        )
    assert fake_server.service.journal.count(status=503) == 1
