"""CORS: off by default; on for the origins given to ``FakeService``, the scenario key
``cors_origins`` or ``fakeservice serve --cors-origin``, through Starlette's middleware."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from fakeservice import FakeService
from fakeservice.cli import build_parser
from fakeservice.scenarios.check import check
from fakeservice.web.cors import EXPOSED_HEADERS
from tests.app.client import TestClient
from tests.cli.test_cli import Served

APP = "http://app.test"
ROOT = {"PRIVATE-TOKEN": "root-token"}
PREFLIGHT = {
    "Origin": APP,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "private-token, content-type",
}


def exposed(response: httpx.Response) -> set[str]:
    return {h.strip().lower() for h in response.headers["access-control-expose-headers"].split(",")}


def test_off_by_default() -> None:
    svc = FakeService()
    with TestClient(svc.app) as client:
        answer = client.get("/api/v4/users?per_page=2", headers={**ROOT, "Origin": APP})
        assert answer.status_code == 200
        assert not any(name.startswith("access-control-") for name in answer.headers)
        preflight = client.options("/api/v4/projects", headers=PREFLIGHT)
        assert "access-control-allow-origin" not in preflight.headers
        assert preflight.status_code in (404, 405)  # the service's own answer to OPTIONS


def test_preflight_and_exposed_headers_for_an_allowed_origin() -> None:
    svc = FakeService(cors_origins=[APP, "http://other.test/"])
    assert svc.cors.origins == (APP, "http://other.test")
    with TestClient(svc.app) as client:
        preflight = client.options("/api/v4/projects", headers=PREFLIGHT)
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == APP
        assert "POST" in preflight.headers["access-control-allow-methods"]
        assert "private-token" in preflight.headers["access-control-allow-headers"].lower()
        assert preflight.headers["access-control-allow-credentials"] == "true"
        assert svc.journal.count() == 0  # a preflight never reaches the service
        listed = client.get("/api/v4/users?per_page=2", headers={**ROOT, "Origin": APP})
        assert listed.headers["access-control-allow-origin"] == APP
        assert {
            "x-total",
            "x-total-pages",
            "x-per-page",
            "x-page",
            "x-next-page",
            "x-prev-page",
            "link",
            "ratelimit-limit",
            "ratelimit-remaining",
            "retry-after",
        } <= exposed(listed)
        assert len(exposed(listed)) == len(EXPOSED_HEADERS)
        created = client.post(
            "/api/v4/projects", headers={**ROOT, "Origin": APP}, json={"name": "from-browser"}
        )
        assert created.status_code == 201
        assert created.headers["access-control-allow-origin"] == APP


def test_an_origin_not_allowed_gets_no_cors_headers() -> None:
    svc = FakeService(cors_origins=[APP])
    with TestClient(svc.app) as client:
        stranger = {**PREFLIGHT, "Origin": "http://evil.test"}
        preflight = client.options("/api/v4/projects", headers=stranger)
        assert preflight.status_code == 400
        assert "access-control-allow-origin" not in preflight.headers
        answer = client.get("/api/v4/version", headers={**ROOT, "Origin": "http://evil.test"})
        assert answer.status_code == 200
        assert "access-control-allow-origin" not in answer.headers


def test_any_origin() -> None:
    svc = FakeService(cors_origins=["*"])
    with TestClient(svc.app) as client:
        preflight = client.options(
            "/api/v4/projects", headers={**PREFLIGHT, "Origin": "http://anything.test"}
        )
        assert preflight.status_code == 200
        answer = client.get("/api/v4/version", headers={**ROOT, "Origin": "http://x.test"})
        # credentials are allowed, so the origin is echoed rather than "*" (and varies)
        assert answer.headers["access-control-allow-origin"] == "http://x.test"
        assert "origin" in answer.headers["vary"].lower()
        # errors carry the headers too, so the browser shows the client the real answer
        missing = client.get("/api/v4/projects/999999", headers={**ROOT, "Origin": "http://x.test"})
        assert missing.status_code == 404
        assert missing.headers["access-control-allow-origin"] == "http://x.test"


def test_the_scenario_key() -> None:
    svc = FakeService({"cors_origins": [APP], "users": [{"username": "ann", "admin": True}]})
    assert svc.cors.origins == (APP,)
    svc.reset()
    assert svc.cors.origins == (APP,)
    with TestClient(svc.app) as client:
        assert client.options("/api/v4/user", headers=PREFLIGHT).status_code == 200
    svc.load_scenario({"cors_origins": ["http://second.test"]}, replace=True)
    assert svc.cors.origins == ("http://second.test",)
    plain = FakeService(cors_origins=[APP])
    plain.load_scenario({"users": [{"username": "bo"}]}, replace=True)
    assert plain.cors.origins == (APP,)  # the constructor's origins stay


def test_the_scenario_key_is_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("cors_origins: ['http://app.test', '*']\n")
    assert check(good) == []
    bad = tmp_path / "bad.yaml"
    bad.write_text("cors_origins: http://app.test\n")
    problems = check(bad)
    assert [p.where for p in problems] == ["cors_origins"]
    assert "a list of strings" in problems[0].message
    with pytest.raises(ValueError, match="cors_origins"):
        FakeService({"cors_origins": [""]})


def test_serve_option_is_repeatable() -> None:
    args = build_parser().parse_args(
        ["serve", "--cors-origin", APP, "--cors-origin", "http://b.test"]
    )
    assert args.cors_origin == [APP, "http://b.test"]
    assert build_parser().parse_args(["serve"]).cors_origin == []


def test_serve_with_cors_origins() -> None:
    served = Served("--cors-origin", APP, "--cors-origin", "*")
    try:
        assert served.lines[2] == f"dashboard: {served.url}/_fake/dashboard"
        assert served.lines[3] == f"CORS allowed for: {APP} *"
        preflight = httpx.options(served.url + "/api/v4/projects", headers=PREFLIGHT)
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == APP
    finally:
        served.stop()
