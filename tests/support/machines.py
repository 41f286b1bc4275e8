"""Hypothesis settings shared by the state-machine tests of long-running operations and
record machines (storage moves, epics, exports, imports): a few dozen short runs, no
deadline (the machine is shared with other test runs)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

MACHINE_SETTINGS = settings(
    max_examples=25,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
