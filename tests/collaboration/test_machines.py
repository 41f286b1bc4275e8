"""Hypothesis state-machine tests of the merge request and merge-status machines, driven
through the HTTP API: whatever the order of closes, reopens, pushes, clock moves and
merge attempts, the answers stay consistent with the tables and with git."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from fakeservice.core.errors import IllegalTransition
from fakeservice.merge_requests.machines import MERGE_STATUS, MERGE_STATUSES, STATE, STATES

from .conftest import SHOP, new_service

MR = f"/projects/{SHOP}/merge_requests/1"


class Record:
    def __init__(self, state: str, merge_status: str) -> None:
        self.state = state
        self.merge_status = merge_status
        self.closed_at = self.closed_by_id = self.merged_at = self.merged_by_id = None
        self.merge_when_pipeline_succeeds = False


def _tables_agree(machine: Any, states: tuple[str, ...], events: list[tuple[str, str]]) -> None:
    for start, event in events:
        record = Record(start, start) if machine is STATE else Record("opened", start)
        target = machine.target(start, event)
        try:
            new = machine.fire(record, event, now=None, by=None)
        except IllegalTransition:
            assert target is None
        else:
            assert new == target and new in states


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(STATES), st.sampled_from((*STATE.events(), "bogus"))),
        max_size=20,
    )
)
def test_state_machine_table(events: list[tuple[str, str]]) -> None:
    _tables_agree(STATE, STATES, events)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(MERGE_STATUSES), st.sampled_from((*MERGE_STATUS.events(), "bogus"))
        ),
        max_size=20,
    )
)
def test_merge_status_table(events: list[tuple[str, str]]) -> None:
    _tables_agree(MERGE_STATUS, MERGE_STATUSES, events)


class MergeRequestFlow(RuleBasedStateMachine):
    """One merge request pushed to, closed, reopened, checked and merged in any order."""

    def __init__(self) -> None:
        super().__init__()
        self.svc = new_service()
        created = self.call(
            "POST",
            f"/projects/{SHOP}/merge_requests",
            {"title": "Checkout", "source_branch": "feature", "target_branch": "main"},
        )
        assert created.status == 201
        self.state = "opened"
        self.pushes = 0
        self.merge_sha: str | None = None
        self.main_has_checkout = False

    def call(self, method: str, path: str, data: Any = None) -> Any:
        return self.svc.request(method, path, token="maya-token", json_body=data)

    def shown(self) -> dict[str, Any]:
        return self.call("GET", MR).json()

    @rule()
    def close(self) -> None:
        self.call("PUT", MR, {"state_event": "close"})
        if self.state == "opened":
            self.state = "closed"

    @rule()
    def reopen(self) -> None:
        self.call("PUT", MR, {"state_event": "reopen"})
        if self.state == "closed":
            self.state = "opened"

    @precondition(lambda self: self.state != "merged")
    @rule(conflicting=st.booleans())
    def push(self, conflicting: bool) -> None:
        self.pushes += 1
        branch = "main" if conflicting else "feature"
        response = self.call(
            "POST",
            f"/projects/{SHOP}/repository/commits",
            {
                "branch": branch,
                "commit_message": f"push {self.pushes}",
                "actions": [
                    {"action": "create", "file_path": f"f{self.pushes}.txt", "content": branch}
                ],
            },
        )
        assert response.status == 201

    @rule(seconds=st.sampled_from([0.5, 1, 2, 5]))
    def tick(self, seconds: float) -> None:
        self.svc.clock.advance(seconds=seconds)

    @rule()
    def merge(self) -> None:
        response = self.call("PUT", f"{MR}/merge")
        if self.state == "opened":
            assert response.status in (200, 406), response.body
            if response.status == 200:
                self.state = "merged"
                self.merge_sha = response.json()["merge_commit_sha"]
            else:
                assert response.json() == {"message": "Branch cannot be merged"}
        else:
            assert response.status == 405

    @invariant()
    def consistent(self) -> None:
        shown = self.shown()
        assert shown["state"] == self.state
        assert shown["merge_status"] in MERGE_STATUSES
        assert shown["has_conflicts"] is (shown["merge_status"] == "cannot_be_merged")
        if self.state == "merged":
            head = self.svc.request(
                "GET", f"/projects/{SHOP}/repository/commits/main", token="maya-token"
            ).json()
            assert shown["merge_commit_sha"] == head["id"] == self.merge_sha
        elif self.state == "opened":
            branch = self.svc.request(
                "GET", f"/projects/{SHOP}/repository/branches/feature", token="maya-token"
            ).json()
            assert shown["sha"] == branch["commit"]["id"]
        assert not self.svc.server_errors


MergeRequestFlow.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestMergeRequestFlow = MergeRequestFlow.TestCase
