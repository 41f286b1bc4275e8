"""The garbage collector pause around scenario loads and initial snapshots: held
inside, given back as it was (nested, across threads, off when it was off)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from fakeservice import FakeService
from fakeservice.core import collector


@pytest.fixture(autouse=True)
def _collector_back() -> Iterator[None]:
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_held_inside_and_resumed_after() -> None:
    gc.enable()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still holds it
    assert gc.isenabled()


def test_left_off_when_it_was_off() -> None:
    gc.disable()
    with collector.paused():
        pass
    assert not gc.isenabled()


def test_overlapping_pauses_in_threads_resume_it_once_the_last_ends() -> None:
    gc.enable()
    entered, release = threading.Event(), threading.Event()

    def other() -> None:
        with collector.paused():
            entered.set()
            release.wait(10)

    worker = threading.Thread(target=other)
    worker.start()
    assert entered.wait(10)
    with collector.paused():
        pass
    assert not gc.isenabled()  # the other thread's pause is still under way
    release.set()
    worker.join(10)
    assert gc.isenabled()


def test_resumed_after_a_failed_load() -> None:
    gc.enable()
    svc = FakeService(None)
    with pytest.raises(Exception, match="username"):
        svc.load_scenario({"users": [{"username": "a"}, {"username": "a"}]})
    assert gc.isenabled()
    assert svc.store.tables["users"].by("username", "a") is None


def test_held_while_a_scenario_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    from fakeservice.scenarios import records

    gc.enable()
    seen: list[bool] = []
    user = records.RecordLoader.user

    def noting(self: records.RecordLoader, item: object, where: str) -> None:
        seen.append(gc.isenabled())
        user(self, item, where)

    monkeypatch.setattr(records.RecordLoader, "user", noting)
    FakeService({"users": [{"username": "a"}]})
    assert seen == [False]
    assert gc.isenabled()
