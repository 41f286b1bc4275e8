"""The export and import machines, as data.

Export: ``none`` →queue→ ``queued`` →start→ ``started`` →finish→ ``finished``; ``fail``
from queued or started; a finished or failed export can be queued again (the answer then
says ``regeneration_in_progress`` while an older file exists).

Import: ``none`` →schedule→ ``scheduled`` →start→ ``started`` →finish→ ``finished``;
``fail`` from scheduled or started; ``cancel`` from scheduled or started.
"""

from __future__ import annotations

from fakeservice.core.machine import Machine

EXPORT_MACHINE = Machine(
    "project_export",
    ("none", "queued", "started", "finished", "failed"),
    [
        ("queue", ("none", "finished", "failed"), "queued"),
        ("start", "queued", "started"),
        ("finish", "started", "finished"),
        ("fail", ("queued", "started"), "failed"),
    ],
)
EXPORT_NEXT = {"queued": "start", "started": "finish"}

IMPORT_MACHINE = Machine(
    "project_import",
    ("none", "scheduled", "started", "finished", "failed", "canceled"),
    [
        ("schedule", "none", "scheduled"),
        ("start", "scheduled", "started"),
        ("finish", "started", "finished"),
        ("fail", ("scheduled", "started"), "failed"),
        ("cancel", ("scheduled", "started"), "canceled"),
    ],
)
IMPORT_NEXT = {"scheduled": "start", "started": "finish"}
