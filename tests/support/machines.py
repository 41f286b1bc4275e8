"""Hypothesis settings shared by the state-machine tests of long-running operations and
record machines (storage moves, epics, exports, imports): a few dozen short runs, no
deadline (the machine is shared with other test runs); and the background mode of
long-running operations."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule

from fakeservice import FakeService
from support.calls import call

MACHINE_SETTINGS = settings(
    max_examples=25,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def background(svc: FakeService, **values: Any) -> None:
    """Set how long-running operations run (``mode``, ``step_seconds``) through the
    control plane."""
    assert call(svc, "POST", "/_fake/background", None, json_body=values).status == 200


class BackgroundMachine(RuleBasedStateMachine):
    """A state machine test over ``self.svc`` that also switches the background mode and
    moves the clock between the rules of its subclasses."""

    svc: FakeService

    @rule(mode=st.sampled_from(["instant", "timed", "manual"]))
    def mode(self, mode: str) -> None:
        background(self.svc, mode=mode, step_seconds=4)

    @rule(seconds=st.integers(0, 10))
    def advance(self, seconds: int) -> None:
        self.svc.advance_clock(seconds=seconds)
