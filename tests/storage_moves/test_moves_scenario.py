"""The ``storage_moves`` scenario section: moves in a given state, checked by
``fakeservice check`` and by the loader."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.scenarios.check import check
from fakeservice.scenarios.loader import ScenarioError

BASE: dict[str, Any] = {
    "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
    "groups": [{"path": "g"}],
    "projects": [{"path": "g/p", "files": {"a.txt": "a\n"}}],
    "instance": {
        "storages": ["default", "storage2"],
        "background": {"mode": "timed", "step_seconds": 5},
    },
}


def scenario(*moves: dict[str, Any]) -> dict[str, Any]:
    return {**BASE, "storage_moves": list(moves)}


def test_moves_in_given_states() -> None:
    svc = FakeService(
        scenario(
            {"project": "g/p", "destination": "storage2", "state": "started"},
            {"group": "g", "destination": "storage2"},
        )
    )
    project_moves = body(call(svc, "GET", "/projects/g%2Fp/repository_storage_moves"))
    assert [m["state"] for m in project_moves] == ["started"]
    write = call(
        svc, "POST", "/projects/1/repository/branches", query={"branch": "b", "ref": "main"}
    )
    assert write.status == 400
    group_moves = body(call(svc, "GET", "/group_repository_storage_moves"))
    assert [m["state"] for m in group_moves] == ["finished"]
    svc.advance_clock(seconds=10)  # timed: replicated, then finished
    assert body(call(svc, "GET", "/project_repository_storage_moves/1"))["state"] == "finished"
    assert body(call(svc, "GET", "/projects/1"))["repository_storage"] == "storage2"


@pytest.mark.parametrize(
    ("state", "storage"),
    [("failed", "default"), ("cleanup_failed", "storage2"), ("initial", "default")],
)
def test_end_states(state: str, storage: str) -> None:
    svc = FakeService(scenario({"project": "g/p", "destination": "storage2", "state": state}))
    assert body(call(svc, "GET", "/project_repository_storage_moves/1"))["state"] == state.replace(
        "_", " "
    )
    assert body(call(svc, "GET", "/projects/1"))["repository_storage"] == storage


@pytest.mark.parametrize(
    "move",
    [
        {"project": "g/nope"},
        {"group": "nope"},
        {"project": "g/p", "destination": "nfs-9"},
    ],
)
def test_bad_moves_are_reported(move: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError):
        FakeService(scenario(move))


def test_check_reports_schema_problems() -> None:
    problems = check(scenario({"project": "g/p", "group": "g", "state": "moving"}))
    text = "\n".join(str(p) for p in problems)
    assert "state" in text
    assert "project" in text and "group" in text
