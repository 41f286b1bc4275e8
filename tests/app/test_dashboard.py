"""The dashboard's server side: the page and its static files, the state endpoint built
from the registered panels, and the server-sent event stream (journal entries and machine
transitions, live)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx

from fakeservice import FakeService
from fakeservice.areas import AREAS
from fakeservice.composition import Composition
from fakeservice.core.machine import Machine
from fakeservice.dashboard import panels
from fakeservice.dashboard.routes import dashboard_state
from tests.app.client import TestClient

ROOT = {"PRIVATE-TOKEN": "root-token"}


def test_the_page_and_its_files_are_served_without_any_network() -> None:
    svc = FakeService()
    with TestClient(svc.app) as client:
        page = client.get("/_fake/dashboard")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "http" not in page.text.replace("http-equiv", "")  # no CDN, no absolute URL
        for name, kind in (("dashboard.js", "javascript"), ("dashboard.css", "text/css")):
            asset = client.get(f"/_fake/dashboard/static/{name}")
            assert asset.status_code == 200 and kind in asset.headers["content-type"]
            assert "https://" not in asset.text and "http://" not in asset.text
        slash = client.get("/_fake/dashboard/", follow_redirects=False)
        assert (slash.status_code, slash.headers["location"]) == (308, "../dashboard")
        assert client.get("/_fake/dashboard/static/../../routes.py").status_code == 404
        missing = client.get("/_fake/dashboard/static/nope.js")
        assert (missing.status_code, missing.json()) == (404, {"error": "404 Not Found"})
        # another method falls through to the control plane, which has no such route
        wrong = client.post("/_fake/dashboard/state", json={"x": 1})
        assert (wrong.status_code, wrong.json()) == (404, {"error": "404 Not Found"})
        assert client.head("/_fake/dashboard").status_code == 200
    assert svc.journal.count() == 0  # the dashboard's own requests are not journaled


def test_state_lists_panels_clock_runner_rules_and_journal() -> None:
    svc = FakeService()
    svc.faults.add("/api/v4/version", status=503, times=1)
    svc.rate_limits.add(limit=100, period=60)
    svc.request("GET", "/user", token="root-token")
    with TestClient(svc.app) as client:
        state = client.get("/_fake/dashboard/state").json()
    assert state["clock"]["now"] == "2026-01-01T09:00:00Z"
    assert state["runner"]["mode"] == "manual"
    assert [f["path"] for f in state["faults"]] == ["/api/v4/version"]
    assert [r["limit"] for r in state["rate_limits"]] == [100]
    assert [(e["method"], e["path"]) for e in state["journal"]] == [("GET", "/api/v4/user")]
    by_key = {p["key"]: p for p in state["panels"]}
    assert list(by_key) == [
        "pipelines", "users", "groups", "projects", "merge_requests", "exports", "storage_moves",
    ]  # fmt: skip
    users = by_key["users"]
    assert users["count"] == len(svc.store.tables["users"])
    assert len(users["rows"]) == min(users["count"], panels.MAX_ROWS)
    assert users["rows"][0]["id"] > users["rows"][-1]["id"]  # newest first
    root = next(row for row in users["rows"] if row["username"] == "root")
    assert (root["status"], root["admin"]) == ("active", "yes")
    groups = {row["full_path"] for row in by_key["groups"]["rows"]}
    assert {"acme", "acme/platform", "oss"} <= groups
    website = next(
        row for row in by_key["projects"]["rows"] if row["path_with_namespace"] == "acme/website"
    )
    assert website["branches"] == "feature/dark-mode, main"
    assert by_key["pipelines"]["rows"] == []


def test_pipelines_show_their_jobs_in_their_states() -> None:
    svc = FakeService()
    created = svc.request(
        "POST", "/projects/acme%2Fwebsite/pipeline", json_body={"ref": "main"}, token="root-token"
    ).json()
    first = svc.request(
        "GET", f"/projects/1/pipelines/{created['id']}/jobs", token="root-token"
    ).json()
    build = next(job for job in first if job["stage"] == "build")
    svc.finish_job(build["id"], "failed")
    (row,) = dashboard_state(svc)["panels"][0]["rows"]
    assert (row["id"], row["project"], row["ref"]) == (created["id"], "acme/website", "main")
    statuses = {job["label"]: job["status"] for job in row["jobs"]}
    assert statuses[build["name"]] == "failed"
    assert (
        row["status"]
        == svc.request("GET", f"/projects/1/pipelines/{created['id']}", token="root-token").json()[
            "status"
        ]
    )
    assert all(set(job) == {"label", "status", "id", "stage"} for job in row["jobs"])


def test_merge_requests_exports_and_storage_moves_have_panels() -> None:
    svc = FakeService()

    def post(path: str, **fields: object) -> dict:
        answer = svc.request("POST", path, json_body=fields, token="root-token")
        assert answer.status in (201, 202), answer.body
        return answer.json()

    post("/projects/1/repository/branches", branch="fix", ref="main")
    post("/projects/1/merge_requests", source_branch="fix", target_branch="main", title="Fix")
    post("/projects/1/export")
    post("/projects/1/repository_storage_moves", destination_storage_name="storage2")
    by_key = {p["key"]: p for p in dashboard_state(svc)["panels"]}
    (mr,) = by_key["merge_requests"]["rows"]
    assert {k: mr[k] for k in ("project", "reference", "title", "status", "branches")} == {
        "project": "acme/website",
        "reference": "!1",
        "title": "Fix",
        "status": "opened",
        "branches": "fix → main",
    }
    (export,) = by_key["exports"]["rows"]
    assert (export["project"], export["user"], by_key["exports"]["count"]) == (
        "acme/website",
        "root",
        1,
    )
    assert (
        export["status"]
        == svc.request("GET", "/projects/1/export", token="root-token").json()["export_status"]
    )
    (move,) = by_key["storage_moves"]["rows"]
    assert (move["container"], move["source"], move["destination"]) == (
        "project 1",
        "default",
        "storage2",
    )
    assert by_key["storage_moves"]["columns"] == [
        "id", "container", "source", "destination", "status", "updated_at",
    ]  # fmt: skip


def test_an_area_adds_a_panel_with_one_registration() -> None:
    def token_rows(service: FakeService, limit: int) -> list[panels.Row]:
        newest = service.composition.panels["tokens"].newest(service, limit)
        return [{"id": t.id, "name": t.name} for t in newest]

    def tokens_panel(setup: Composition) -> None:
        setup.panel(
            panels.Panel("tokens", "Tokens", ("id", "name"), token_rows, table="tokens", order=5)
        )
        setup.panel(
            panels.Panel("later", "Not built yet", ("id",), token_rows, table="no_such_table")
        )

    state = panels.panels_state(FakeService(areas=(*AREAS, tokens_panel)))
    assert [p["key"] for p in state][:2] == ["pipelines", "tokens"]
    assert "later" not in [p["key"] for p in state]
    assert state[1]["columns"] == ["id", "name"] and state[1]["rows"]
    # a service made without that area shows no such panel
    assert "tokens" not in [p["key"] for p in panels.panels_state(FakeService())]


# -- the event stream ---------------------------------------------------------------------
def events(response: httpx.Response) -> Iterator[tuple[str, dict]]:
    kind = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[len("event: ") :]
        elif line.startswith("data: ") and kind is not None:
            yield kind, json.loads(line[len("data: ") :])
            kind = None


def next_event(stream: Iterator[tuple[str, dict]], kind: str) -> dict:
    for found, data in stream:
        if found == kind:
            return data
    raise AssertionError(f"the stream ended before a {kind} event")


def test_events_stream_journal_entries_and_transitions() -> None:
    svc = FakeService()
    other = FakeService()
    assert svc.events.listening == 0 and Machine.listeners == []
    with (
        svc.serve() as url,
        httpx.Client(base_url=url, timeout=10) as client,
        client.stream("GET", "/_fake/events") as response,
    ):
        assert response.headers["content-type"].startswith("text/event-stream")
        stream = events(response)
        assert next_event(stream, "hello") == {"listening": 1}
        # another service's transitions are not this one's
        other.request("POST", "/projects/1/pipeline", json_body={"ref": "main"}, token="root-token")
        client.get("/api/v4/version", headers=ROOT)
        entry = next_event(stream, "journal")
        assert (entry["method"], entry["path"], entry["status"]) == (
            "GET",
            "/api/v4/version",
            200,
        )
        svc.request(  # in-process, from this thread: it reaches the stream too
            "POST", "/projects/1/pipeline", json_body={"ref": "main"}, token="root-token"
        )
        moved = next_event(stream, "transition")
        table = {"job": "ci_jobs", "pipeline": "ci_pipelines"}[moved["machine"]]
        record = svc.store.tables[table].get(moved["id"])
        assert record is not None and other.store.tables[table].get(moved["id"]) is not record
        assert moved["to"] != moved["from"]
        assert next_event(stream, "journal")["path"] == "/api/v4/projects/1/pipeline"
    assert svc.events.listening == 0 and Machine.listeners == []  # nothing left behind


def test_shutdown_ends_open_streams() -> None:
    svc = FakeService()
    with svc.serve() as url, httpx.Client(base_url=url, timeout=10) as client:
        response = client.send(client.build_request("GET", "/_fake/events"), stream=True)
        stream = events(response)
        assert next_event(stream, "hello")
        svc.events.close()
        assert list(stream) == []  # the server ended it
        response.close()


def test_stopping_the_server_ends_open_streams_cleanly() -> None:
    svc = FakeService()
    with httpx.Client(timeout=10) as client:
        with svc.serve() as url:
            response = client.send(client.build_request("GET", url + "/_fake/events"), stream=True)
            stream = events(response)
            assert next_event(stream, "hello")
        # the server ended the stream before shutting down (not cut at the graceful timeout)
        assert list(stream) == []
        response.close()
    assert svc.events.listening == 0


def test_a_subscriber_whose_loop_is_gone_is_skipped() -> None:
    svc = FakeService()

    async def subscribe() -> object:
        return svc.events.subscribe()

    loop = asyncio.new_event_loop()
    subscriber = loop.run_until_complete(subscribe())
    loop.close()
    svc.request("GET", "/version", token="root-token")  # publishes to the dead subscriber
    assert svc.server_errors == []
    svc.events.unsubscribe(subscriber)  # type: ignore[arg-type]
    assert Machine.listeners == []
