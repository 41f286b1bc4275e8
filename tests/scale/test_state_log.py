"""``--state-file`` as a base snapshot plus an append-only log: every state-changing
request appends its delta (fsynced), compaction rewrites the whole file atomically, and
loading gives exactly the live state (records, every index, sequences, extras, clock).
A ``kill -9`` at any moment loses no acknowledged write and leaves no stray file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService
from fakeservice.control import statefile
from fakeservice.control.statefile import MAGIC, Persister

from .test_undo import ACTIONS, TOKEN, names, service, state_of


def reset(svc: FakeService, _name: str) -> None:
    svc.request("POST", "/_fake/reset")


def loaded(path: Path) -> FakeService:
    fresh = FakeService(None)
    fresh.load_state(path)
    return fresh


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.tuples(st.sampled_from([*ACTIONS, reset]), names), min_size=1, max_size=8))
def test_the_file_always_holds_the_live_state(
    tmp_path_factory: Any, steps: list[tuple[Any, str]]
) -> None:
    path = tmp_path_factory.mktemp("log") / "s.state"
    svc = service()
    persister = Persister(svc, path, compact_at=4096)
    svc.add_hooks(after=persister)
    for action, name in steps:
        action(svc, name)
        svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": name})  # always a write
        assert state_of(loaded(path)) == state_of(svc)
    assert persister.saves >= len(steps)


def test_small_writes_append_and_the_log_is_compacted(tmp_path: Path) -> None:
    path = tmp_path / "s.state"
    svc = FakeService()
    persister = Persister(svc, path, compact_at=1)
    svc.add_hooks(after=persister)
    svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": "first"})  # whole save
    base = path.stat().st_size
    svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": "second"})
    appended = path.stat().st_size - base
    assert 0 < appended < base / 10  # a delta, not the state
    number = 0
    while persister.compactions < 2 and number < 5000:  # once the log outgrows the base
        number += 1
        svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": f"b{number}"})
    assert persister.compactions == 2
    assert persister.log_size == 0
    assert path.read_bytes().startswith(MAGIC)
    assert [p.name for p in tmp_path.iterdir()] == ["s.state"]
    svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": "last"})
    assert loaded(path).request("GET", "/users/2", token=TOKEN).json()["bio"] == "last"


def test_a_torn_last_frame_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "s.state"
    svc = FakeService()
    svc.persist_to(path)
    svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": "kept"})
    svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": "also kept"})
    with open(path, "ab") as out:
        out.write(statefile.FRAME.pack(1000, 0) + b"half a frame")
    assert loaded(path).request("GET", "/users/2", token=TOKEN).json()["bio"] == "also kept"


def test_files_of_the_earlier_format_still_load(tmp_path: Path) -> None:
    import pickle

    path = tmp_path / "old.state"
    svc = FakeService()
    svc.request("PUT", "/users/2", token=TOKEN, json_body={"bio": "old"})
    envelope = {"format": "fakeservice-state", "version": 1, "snapshot": svc.snapshot()}
    path.write_bytes(pickle.dumps(envelope))
    assert loaded(path).request("GET", "/users/2", token=TOKEN).json()["bio"] == "old"


CHILD = textwrap.dedent(
    """
    import sys
    from fakeservice import FakeService
    from fakeservice.control.statefile import Persister

    svc = FakeService()
    svc.add_hooks(after=Persister(svc, sys.argv[1], compact_at=30_000))
    number = 0
    while True:
        body = {"name": f"p{number}"}
        assert svc.request("POST", "/projects", token="root-token", json_body=body).status == 201
        print(number, flush=True)  # acknowledged
        number += 1
    """
)


def test_kill_9_at_any_moment_loses_no_acknowledged_write(tmp_path: Path) -> None:
    for attempt, acks in enumerate((3, 17, 41, 66)):
        folder = tmp_path / f"run{attempt}"
        folder.mkdir()
        path = folder / "s.state"
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert child.stdout is not None
        last = -1
        while last < acks:
            last = int(child.stdout.readline())
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for line in child.stdout:  # acknowledged before the kill landed
            last = int(line)
        restored = loaded(path)
        for number in range(last + 1):
            found = restored.request("GET", f"/projects/root%2Fp{number}", token=TOKEN)
            assert found.status == 200, (attempt, number, last)
        Persister(restored, path)  # what serving it again does first
        assert [p.name for p in folder.iterdir()] == ["s.state"]
