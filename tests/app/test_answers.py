"""Repeated reads answered again from the kept answer (:mod:`fakeservice.web.answers`):
the same bytes and journal as running them, never once something moved (a write over the
API, the Python API's runner and clock, a restore, a fault or rate-limit rule, a record
changed in place and announced), over the Starlette app, a live server with python-gitlab,
and in-process; a hypothesis machine compares a service keeping answers with one that
does not."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import gitlab
import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import fakeservice.web.answers as answers_module
import fakeservice.web.raw as raw_module
from fakeservice import FakeService
from fakeservice.testing.server import LiveServer
from fakeservice.web.answers import AnswerMismatch

from .client import TestClient

ROOT = "root-token"
HEADERS = {"PRIVATE-TOKEN": ROOT}


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the dispatch ran for, in order."""
    seen: list[str] = []
    real = answers_module.dispatch

    def counted(service: Any, request: Any) -> Any:
        seen.append(request.raw_path)
        return real(service, request)

    monkeypatch.setattr(answers_module, "dispatch", counted)
    monkeypatch.setattr(raw_module, "dispatch", counted)
    return seen


def keeping(service: FakeService, *, in_process: bool = False) -> FakeService:
    """``service`` keeping answers, whatever ``FAKESERVICE_VERIFY_ANSWERS`` says."""
    service.answers.verify = False
    service.answers.in_process = in_process
    return service


@pytest.fixture
def svc() -> FakeService:
    return keeping(FakeService())


@pytest.fixture
def client(svc: FakeService) -> Iterator[TestClient]:
    with TestClient(svc.app, base_url="http://fake.test") as client:
        yield client


def answer(response: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    return response.status_code, list(response.headers.items()), response.content


# -- served again ------------------------------------------------------------------------
def test_a_repeated_read_is_answered_again_with_the_same_bytes_and_journal(
    svc: FakeService, client: TestClient, runs: list[str]
) -> None:
    first = client.get("/api/v4/projects/1", headers=HEADERS)
    second = client.get("/api/v4/projects/1", headers=HEADERS)
    assert first.status_code == 200
    assert answer(second) == answer(first)
    assert runs == ["/api/v4/projects/1"]  # the second did not run the dispatch
    one, two = svc.journal.tail(2)
    assert two.seq == one.seq + 1
    assert {**two.to_json(), "seq": one.seq} == one.to_json()
    assert two.user == "root" and two.status == 200 and two.method == "GET"


def test_what_differs_in_the_request_is_another_answer(client: TestClient, runs: list[str]) -> None:
    private = "/api/v4/projects/3"
    assert client.get(private, headers=HEADERS).status_code == 200
    anonymous = client.get(private)
    other_query = client.get(private, headers=HEADERS, params={"statistics": "true"})
    assert anonymous.status_code == 404  # the project is private
    assert "statistics" in other_query.json()
    assert runs == [private] * 3


def test_only_successful_gets_without_a_body_are_kept(client: TestClient, runs: list[str]) -> None:
    for _ in range(2):
        client.get("/api/v4/projects/404404", headers=HEADERS)  # 404
        client.head("/api/v4/projects/1", headers=HEADERS)
        client.request("GET", "/api/v4/projects/1", headers=HEADERS, content=b"{}")
    assert runs == ["/api/v4/projects/404404", "/api/v4/projects/1", "/api/v4/projects/1"] * 2


# -- never once something moved ----------------------------------------------------------
def test_a_write_over_the_api_is_seen_by_the_next_read(client: TestClient, runs: list[str]) -> None:
    assert client.get("/api/v4/projects/1", headers=HEADERS).json()["description"] != "new"
    edited = client.put("/api/v4/projects/1", headers=HEADERS, json={"description": "new"})
    assert edited.status_code == 200
    assert client.get("/api/v4/projects/1", headers=HEADERS).json()["description"] == "new"
    assert runs.count("/api/v4/projects/1") == 3


def test_the_python_api_clock_and_runner_are_seen(svc: FakeService, client: TestClient) -> None:
    project = "/api/v4/projects/1"
    created = client.post(f"{project}/pipeline", headers=HEADERS, json={"ref": "main"})
    assert created.status_code == 201
    path = f"{project}/pipelines/{created.json()['id']}"
    assert client.get(path, headers=HEADERS).json()["status"] == "pending"
    svc.runner.run_all(created.json()["id"])  # the Python API, under the store's lock
    assert client.get(path, headers=HEADERS).json()["status"] == "success"
    date = client.get(path, headers=HEADERS).headers["date"]
    svc.clock.advance(hours=1)
    assert client.get(path, headers=HEADERS).headers["date"] != date


def test_a_restore_is_seen(svc: FakeService, client: TestClient) -> None:
    snapshot = svc.snapshot()
    client.put("/api/v4/projects/1", headers=HEADERS, json={"description": "new"})
    assert client.get("/api/v4/projects/1", headers=HEADERS).json()["description"] == "new"
    svc.restore(snapshot)
    assert client.get("/api/v4/projects/1", headers=HEADERS).json()["description"] != "new"


def test_faults_and_rate_limits_act_on_every_request(svc: FakeService, client: TestClient) -> None:
    client.get("/api/v4/version", headers=HEADERS)
    client.get("/api/v4/version", headers=HEADERS)
    svc.rate_limits.add(2, 60, path="/api/v4/version")
    statuses = [client.get("/api/v4/version", headers=HEADERS).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]  # counted, although the answer was kept before
    svc.rate_limits.clear()
    svc.faults.add(path="/api/v4/version", status=503)
    assert client.get("/api/v4/version", headers=HEADERS).status_code == 503
    svc.faults.clear()
    assert client.get("/api/v4/version", headers=HEADERS).status_code == 200


def test_a_record_changed_in_place_is_announced_with_clear(
    svc: FakeService, client: TestClient
) -> None:
    from fakeservice.projects.models import find_project

    assert client.get("/api/v4/projects/1", headers=HEADERS).json()["description"] != "poked"
    project = find_project(svc.store, 1)
    assert project is not None
    project.description = "poked"  # outside the store and its lock
    svc.answers.clear()
    assert client.get("/api/v4/projects/1", headers=HEADERS).json()["description"] == "poked"


def test_verification_reports_a_kept_answer_that_no_longer_holds(
    svc: FakeService, client: TestClient
) -> None:
    from fakeservice.projects.models import find_project

    svc.answers.verify = True
    client.get("/api/v4/projects/1", headers=HEADERS)
    project = find_project(svc.store, 1)
    assert project is not None
    project.description = "poked"  # not announced
    fresh = client.get("/api/v4/projects/1", headers=HEADERS)
    assert fresh.json()["description"] == "poked"  # verification serves nothing again
    assert [type(error) for error in svc.server_errors] == [AnswerMismatch]


def test_turned_off_every_read_runs(svc: FakeService, client: TestClient, runs: list[str]) -> None:
    svc.answers.enabled = False
    client.get("/api/v4/version", headers=HEADERS)
    client.get("/api/v4/version", headers=HEADERS)
    assert runs == ["/api/v4/version"] * 2
    assert len(svc.answers) == 0


def test_middleware_adding_headers_does_not_change_the_kept_answer() -> None:
    svc = FakeService(cors_origins=["http://app.test"])
    with TestClient(svc.app, base_url="http://fake.test") as client:
        sent = {**HEADERS, "Origin": "http://app.test"}
        answers = [client.get("/api/v4/version", headers=sent) for _ in range(3)]
    allowed = [a.headers.get_list("access-control-allow-origin") for a in answers]
    assert allowed == [["http://app.test"]] * 3


def test_python_gitlab_over_a_live_server_reads_fresh_state() -> None:
    svc = FakeService()
    with LiveServer(svc) as server:
        gl = gitlab.Gitlab(server.url, private_token=ROOT)
        project = gl.projects.get(1)
        assert gl.projects.get(1).description == project.description
        project.description = "saved through the client"
        project.save()
        assert gl.projects.get(1).description == "saved through the client"
        served = gl.projects.get(1, lazy=False).asdict()
    assert served["description"] == "saved through the client"
    assert [e.method for e in svc.journal.tail(5)] == ["GET", "GET", "PUT", "GET", "GET"]


# -- the same as running every request ---------------------------------------------------
PATHS = (
    "/projects/1",
    "/projects",
    "/projects/1/issues",
    "/projects/1/pipelines",
    "/users",
    "/user",
    "/version",
)
TOKENS = (ROOT, "alice-token", None)


class KeptEqualsRun(RuleBasedStateMachine):
    """Two services on the default scenario get the same requests; one keeps answers
    (in-process), the other runs every request: every answer and the journals agree."""

    @initialize()
    def start(self) -> None:
        self.kept = keeping(FakeService(), in_process=True)
        self.run = FakeService()
        self.run.answers.enabled = False
        self.hits = 0

    def both(self, method: str, path: str, token: str | None, body: Any = None) -> None:
        runs = len(self.kept.journal)
        one = self.kept.request(method, path, token=token, json_body=body)
        two = self.run.request(method, path, token=token, json_body=body)
        assert (one.status, one.headers, one.body) == (two.status, two.headers, two.body)
        assert len(self.kept.journal) == runs + 1

    @rule(path=st.sampled_from(PATHS), token=st.sampled_from(TOKENS))
    def read(self, path: str, token: str | None) -> None:
        self.both("GET", path, token)
        status = self.kept.journal.last().status  # type: ignore[union-attr]
        self.both("GET", path, token)
        if status == 200:  # the second was served again: kept as a repeat in the journal
            assert isinstance(self.kept.journal._entries[-1], tuple)

    @rule(title=st.text(alphabet="abc ", min_size=1, max_size=8))
    def open_issue(self, title: str) -> None:
        self.both("POST", "/projects/1/issues", ROOT, {"title": title})

    @rule(description=st.sampled_from(["one", "two"]))
    def edit_project(self, description: str) -> None:
        self.both("PUT", "/projects/1", ROOT, {"description": description})

    @rule()
    def pipeline(self) -> None:
        self.both("POST", "/projects/1/pipeline", ROOT, {"ref": "main"})

    @rule(minutes=st.integers(min_value=1, max_value=30))
    def tick(self, minutes: int) -> None:
        self.kept.clock.advance(minutes=minutes)
        self.run.clock.advance(minutes=minutes)

    @rule()
    def settle(self) -> None:
        for service in (self.kept, self.run):
            pipelines = json.loads(service.request("GET", "/projects/1/pipelines").body or b"[]")
            for pipeline in pipelines if isinstance(pipelines, list) else []:
                service.runner.run_all(pipeline["id"])

    @invariant()
    def journals_agree(self) -> None:
        if hasattr(self, "kept"):
            kept = [e.to_json() for e in self.kept.journal.entries()]
            ran = [e.to_json() for e in self.run.journal.entries()]
            assert kept == ran


KeptEqualsRun.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_kept_answers_equal_running_every_request = KeptEqualsRun.TestCase
