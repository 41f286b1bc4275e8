"""State files: atomic saves, restore, the save-after-change hook, and clear errors."""

from __future__ import annotations

import os
import pickle
import re
from pathlib import Path

import pytest

from fakeservice import FakeService
from fakeservice.control import statefile
from fakeservice.control.statefile import StateFileError


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.state"
    source = FakeService()
    source.request("POST", "/projects", token="root-token", json_body={"name": "saved"})
    source.advance_clock(30)
    source.save_state(path)
    target = FakeService()
    target.load_state(path)
    assert target.request("GET", "/projects/root%2Fsaved", token="root-token").status == 200
    assert target.now() == source.now()


def test_a_crash_mid_write_keeps_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.state"
    service = FakeService()
    service.save_state(path)
    before = path.read_bytes()
    service.request("POST", "/projects", token="root-token", json_body={"name": "lost"})

    def crash(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(statefile.os, "replace", crash)
    with pytest.raises(StateFileError, match="No space left on device"):
        service.save_state(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.state"]


def test_writes_go_through_fsync_and_replace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(
        statefile.os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1]
    )
    monkeypatch.setattr(
        statefile.os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1]
    )
    statefile.write_atomic(tmp_path / "f", b"data")
    assert calls[:2] == ["fsync", "replace"]
    assert (tmp_path / "f").read_bytes() == b"data"


def test_persist_saves_after_changes_only(tmp_path: Path) -> None:
    path = tmp_path / "s.state"
    service = FakeService()
    service.persist_to(path)
    service.request("GET", "/users", token="root-token")
    service.request("HEAD", "/users", token="root-token")
    assert not path.exists()
    service.request("POST", "/projects", token="root-token", json_body={"name": "p"})
    assert path.exists()
    first = path.stat().st_mtime_ns
    service.request("POST", "/_fake/clock", json_body={"seconds": 5})
    assert path.stat().st_mtime_ns >= first
    restored = FakeService()
    restored.load_state(path)
    assert restored.now() == service.now()


def test_failed_save_keeps_serving(tmp_path: Path) -> None:
    service = FakeService()
    service.persist_to(tmp_path / "missing-dir" / "s.state")
    response = service.request("POST", "/projects", token="root-token", json_body={"name": "p"})
    assert response.status == 201
    assert isinstance(service.server_errors[0], StateFileError)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"garbage", "is not a fakeservice state file (or it is damaged)"),
        (pickle.dumps({"format": "other"}), "is not a fakeservice state file"),
        (
            pickle.dumps({"format": "fakeservice-state", "version": 99, "snapshot": b""}),
            "has state format version 99",
        ),
    ],
)
def test_bad_files_are_refused_clearly(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "s.state"
    path.write_bytes(content)
    with pytest.raises(StateFileError, match=re.escape(message)):
        FakeService().load_state(path)
    with pytest.raises(StateFileError, match="cannot read the state file"):
        FakeService().load_state(tmp_path / "absent")
