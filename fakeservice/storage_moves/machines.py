"""The storage move machine (as data).

``initial`` →schedule→ ``scheduled`` →start→ ``started`` →finish_replication→
``replicated`` →finish_cleanup→ ``finished``; ``fail`` ends an unfinished copy in
``failed`` and a failed cleanup (after replication) in ``cleanup_failed``.

The repository is read-only while the move is ``scheduled`` or ``started``; on
``replicated`` the container lives on the destination storage and is writable again.
"""

from __future__ import annotations

from fakeservice.core.machine import Machine

STATES = ("initial", "scheduled", "started", "replicated", "finished", "failed", "cleanup_failed")
READ_ONLY_STATES = frozenset({"scheduled", "started"})
# The event the background job fires next from each state (none once it is over).
NEXT_EVENT = {
    "initial": "schedule",
    "scheduled": "start",
    "started": "finish_replication",
    "replicated": "finish_cleanup",
}

MOVE_MACHINE = Machine(
    "repository_storage_move",
    STATES,
    [
        ("schedule", "initial", "scheduled"),
        ("start", "scheduled", "started"),
        ("finish_replication", "started", "replicated"),
        ("finish_cleanup", "replicated", "finished"),
        ("fail", ("initial", "scheduled", "started"), "failed"),
        ("fail", "replicated", "cleanup_failed"),
    ],
    attribute="state",
)
