"""The journal is a bounded ring: its capacity comes from the FakeService argument, the
scenario's ``journal`` key or ``fakeservice serve --journal-size``; what it forgot is
reported (``X-Journal-Dropped``) and nothing else grows per request."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService
from fakeservice.cli import build_parser
from fakeservice.control.journal import DEFAULT_CAPACITY, Journal
from fakeservice.scenarios.problems import ScenarioError

TOKEN = "root-token"


def test_the_default_is_a_ring_of_ten_thousand() -> None:
    assert Journal().capacity == DEFAULT_CAPACITY == 10_000


def test_the_ring_forgets_the_oldest_and_counts_them_over_http() -> None:
    svc = FakeService(journal_capacity=3)
    for number in range(5):
        svc.request("GET", f"/users/{number + 1}", token=TOKEN)
    answer = svc.request("GET", "/_fake/journal")
    assert answer.status == 200
    assert answer.header("X-Journal-Capacity") == "3"
    assert answer.header("X-Journal-Dropped") == "2"
    assert [e["path"] for e in answer.json()["entries"]] == [
        "/api/v4/users/3",
        "/api/v4/users/4",
        "/api/v4/users/5",
    ]
    assert [e["seq"] for e in answer.json()["entries"]] == [3, 4, 5]
    assert svc.request("DELETE", "/_fake/journal").status == 204
    assert svc.request("GET", "/_fake/journal").header("X-Journal-Dropped") == "0"


def test_python_gitlab_requests_fill_the_ring(fake_service: FakeService) -> None:
    fake_service.journal.resize(2)
    client = gitlab.Gitlab(
        fake_service.base_url, private_token=TOKEN, session=fake_service.requests_session()
    )
    for project in ("acme/website", "oss/lib-01", "oss/lib-02"):
        client.projects.get(project)
    assert len(fake_service.journal) == 2 and fake_service.journal.dropped == 1
    assert fake_service.journal.last().path == "/api/v4/projects/oss%2Flib-02"


def test_the_scenario_key_sets_it_and_reset_keeps_it() -> None:
    svc = FakeService({"journal": {"capacity": 2}, "users": [{"username": "solo"}]})
    for _ in range(4):
        svc.request("GET", "/version")
    assert (len(svc.journal), svc.journal.dropped) == (2, 2)
    svc.reset()
    assert (svc.journal.capacity, len(svc.journal), svc.journal.dropped) == (2, 0, 0)
    stamped = FakeService.from_template(svc.template())
    assert stamped.journal.capacity == 2
    assert FakeService.from_template(svc.template(), journal_capacity=7).journal.capacity == 7


@pytest.mark.parametrize("capacity", [0, -1, "many", 10_000_001, True])
def test_bad_capacities_are_refused(capacity: object) -> None:
    with pytest.raises(ScenarioError, match="journal"):
        FakeService({"journal": {"capacity": capacity}})
    with pytest.raises(ValueError, match="journal capacity"):
        Journal().resize(capacity)  # type: ignore[arg-type]


def test_the_serve_flag() -> None:
    assert build_parser().parse_args(["serve", "--journal-size", "50"]).journal_size == 50
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--journal-size", "0"])


def test_shrinking_keeps_the_newest() -> None:
    svc = FakeService(journal_capacity=5)
    for number in range(5):
        svc.request("GET", f"/users/{number + 1}", token=TOKEN)
    svc.journal.resize(2)
    assert [e.seq for e in svc.journal] == [4, 5] and svc.journal.dropped == 3


def test_reads_leave_nothing_behind_but_the_ring() -> None:
    svc = FakeService(journal_capacity=10)
    for _ in range(200):
        svc.request("GET", "/projects/1", token=TOKEN)
    touched = {name: len(t.rows.touched or ()) for name, t in svc.store.tables.items()}
    for _ in range(800):
        svc.request("GET", "/projects/1", token=TOKEN)
    assert {name: len(t.rows.touched or ()) for name, t in svc.store.tables.items()} == touched
    assert len(svc.journal) == 10
    assert not svc.control._delays and not svc.control._early
