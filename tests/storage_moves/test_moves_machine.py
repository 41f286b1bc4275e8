"""The move machine as a hypothesis state machine: any interleaving of schedules, control
events, background mode changes and clock moves keeps the invariants: the repository is
read-only exactly while a move is scheduled or started, a project lives on a move's
destination once the move replicated, and the API never answers 500."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from support.calls import body, call
from support.machines import MACHINE_SETTINGS
from support.services import stamp

from fakeservice.storage_moves.machines import MOVE_MACHINE, READ_ONLY_STATES

PROJECTS = (1, 2, 3)
REPLICATED = {"replicated", "finished", "cleanup_failed"}


class StorageMoves(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = stamp("default", "default")
        call(self.svc, "POST", "/_fake/background", None, json_body={"mode": "manual"})

    @rule(
        project=st.sampled_from(PROJECTS),
        destination=st.sampled_from(["default", "storage2", None]),
    )
    def schedule(self, project: int, destination: str | None) -> None:
        payload = {} if destination is None else {"destination_storage_name": destination}
        answer = call(
            self.svc, "POST", f"/projects/{project}/repository_storage_moves", json_body=payload
        )
        assert answer.status in (201, 400)

    @rule(move=st.integers(1, 8), event=st.sampled_from(MOVE_MACHINE.events()))
    def fire(self, move: int, event: str) -> None:
        answer = call(
            self.svc, "POST", f"/_fake/storage_moves/{move}/fire", None, json_body={"event": event}
        )
        assert answer.status in (200, 404, 409)

    @rule(mode=st.sampled_from(["instant", "timed", "manual"]))
    def mode(self, mode: str) -> None:
        call(
            self.svc, "POST", "/_fake/background", None, json_body={"mode": mode, "step_seconds": 7}
        )

    @rule(seconds=st.integers(0, 30))
    def advance(self, seconds: int) -> None:
        self.svc.advance_clock(seconds=seconds)

    @invariant()
    def consistent(self) -> None:
        moves = body(
            call(self.svc, "GET", "/project_repository_storage_moves", query={"per_page": 100})
        )
        for project in PROJECTS:
            own = [m for m in moves if m["project"]["id"] == project]
            moving = any(m["state"].replace(" ", "_") in READ_ONLY_STATES for m in own)
            write = call(
                self.svc,
                "POST",
                f"/projects/{project}/repository/branches",
                query={"branch": "probe", "ref": "main"},
            )
            if moving:
                assert write.status == 400
            elif write.status == 201:
                call(self.svc, "DELETE", f"/projects/{project}/repository/branches/probe")
            latest = next((m for m in own if m["state"].replace(" ", "_") in REPLICATED), None)
            storage = body(call(self.svc, "GET", f"/projects/{project}"))["repository_storage"]
            if latest is not None:
                assert storage == latest["destination_storage_name"]
        assert not self.svc.server_errors


StorageMoves.TestCase.settings = MACHINE_SETTINGS
TestStorageMoves = StorageMoves.TestCase
