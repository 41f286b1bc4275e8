"""The ``fake_service`` fixture reuses one service per scenario and undoes each test's
changes: nothing a test does (records, hooks, clock, runner, faults, journal, named
snapshots, replaced attributes, a whole replaced state) reaches the next test."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

LEAKY = """
import gitlab
import pytest

seen = []

def test_a_changes_everything(fake_service, fake_gitlab):
    seen.append(fake_service)
    fake_gitlab.projects.create({"name": "leak"})
    fake_gitlab.users.create({"username": "leaky", "name": "L", "email": "l@x.test", "password": "long-enough-1"})
    fake_service.request("PUT", "/projects/1", token="root-token", json_body={"description": "leak"})
    fake_service.request(
        "POST", "/projects/1/repository/files/leak.txt", token="root-token",
        json_body={"branch": "main", "content": "x", "commit_message": "leak"},
    )
    fake_service.request("POST", "/projects/1/pipeline", token="root-token", json_body={"ref": "main"})
    fake_service.runner.set_mode("timed")
    fake_service.advance_clock(hours=5)
    fake_service.faults.add("/version", status=502)
    fake_service.rate_limits.add(limit=1, period=60)
    fake_service.save_snapshot("mine")
    fake_service.add_hooks(before=lambda request: None)
    fake_service.base_url = "http://elsewhere.test"
    fake_service.set_clock_mode("frozen")

def test_b_sees_the_scenario(fake_service, fake_gitlab):
    assert fake_service is seen[0]  # the same object, put back
    assert fake_service.base_url == "http://fakeservice.test"
    assert fake_service.clock.mode == "manual"
    assert fake_service.now().isoformat() == "2026-01-01T09:00:00+00:00"
    assert fake_service.faults.rules == [] and fake_service.rate_limits.rules == []
    assert fake_service.control.snapshots.ids() == []
    assert len(fake_service.journal) == 0
    assert [p.name for p in fake_gitlab.projects.list(search="leak")] == []
    assert fake_gitlab.users.list(username="leaky") == []
    assert fake_gitlab.projects.get(1).description != "leak"
    assert fake_service.request("GET", "/projects/1/repository/files/leak.txt?ref=main", token="root-token").status == 404
    assert fake_service.request("GET", "/projects/1/pipelines", token="root-token").json() == []
    made = fake_gitlab.projects.create({"name": "again"})
    assert made.id == 35  # sequences are back too: the same id as in a fresh service

def test_c_replaces_the_whole_state(fake_service):
    fake_service.load_scenario({"users": [{"username": "solo", "admin": True}]}, replace=True)
    assert fake_service.request("GET", "/user", token="root-token").status == 401

def test_d_sees_the_scenario_again(fake_service):
    assert fake_service.request("GET", "/user", token="root-token").json()["username"] == "root"
"""


def test_nothing_a_test_does_reaches_the_next(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(LEAKY)
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=4)


def test_copy_isolation_stamps_a_new_service_per_test(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakeservice_isolation = copy\n")
    pytester.makepyfile(
        """
        seen = []

        def test_one(fake_service):
            seen.append(fake_service)
            fake_service.request("POST", "/projects", token="root-token", json_body={"name": "p"})

        def test_two(fake_service):
            assert fake_service is not seen[0]
            assert fake_service.request("GET", "/projects/root%2Fp", token="root-token").status == 404
        """
    )
    pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly").assert_outcomes(passed=2)


def test_an_unknown_isolation_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakeservice_isolation = share\n")
    pytester.makepyfile("def test_one(fake_service):\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*fakeservice_isolation is one of undo, copy, not 'share'*"])
