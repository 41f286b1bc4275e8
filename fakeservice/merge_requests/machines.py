"""The merge request machines, as data.

``state``: ``opened`` → ``closed`` (close) → ``opened`` (reopen); ``opened`` → ``locked``
(lock, while a merge runs) → ``merged`` (merge) or back to ``opened`` (unlock, when the
merge fails).

``merge_status``: ``unchecked`` → ``checking`` (check) → ``can_be_merged`` (mergeable) or
``cannot_be_merged`` (conflict). A push or a target change marks it ``unchecked`` again
(``cannot_be_merged`` becomes ``cannot_be_merged_recheck``). A check runs asynchronously:
it completes :data:`CHECK_SECONDS` later on the service clock, or at once when the
project's runner mode is ``instant``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.machine import Machine

CHECK_SECONDS = 2.0
REBASE_SECONDS = 5.0

STATES = ("opened", "closed", "locked", "merged")
MERGE_STATUSES = (
    "unchecked",
    "checking",
    "can_be_merged",
    "cannot_be_merged",
    "cannot_be_merged_recheck",
)


def _closed(record: Any, old: str, event: str, context: dict[str, Any]) -> None:
    record.closed_at = context["now"]
    record.closed_by_id = context.get("by")


def _reopened(record: Any, old: str, event: str, context: dict[str, Any]) -> None:
    if old == "closed":
        record.closed_at = None
        record.closed_by_id = None


def _merged(record: Any, old: str, event: str, context: dict[str, Any]) -> None:
    record.merged_at = context["now"]
    record.merged_by_id = context.get("by")
    record.merge_when_pipeline_succeeds = False


STATE = Machine(
    "merge_request",
    STATES,
    (
        ("close", "opened", "closed"),
        ("reopen", "closed", "opened"),
        ("lock", "opened", "locked"),
        ("unlock", "locked", "opened"),
        ("merge", "locked", "merged"),
    ),
    attribute="state",
    effects={"closed": [_closed], "opened": [_reopened], "merged": [_merged]},
)

MERGE_STATUS = Machine(
    "merge_status",
    MERGE_STATUSES,
    (
        ("check", ("unchecked", "cannot_be_merged_recheck"), "checking"),
        ("mergeable", "checking", "can_be_merged"),
        ("conflict", "checking", "cannot_be_merged"),
        ("mark_unchecked", ("can_be_merged", "checking"), "unchecked"),
        ("mark_unchecked", ("cannot_be_merged",), "cannot_be_merged_recheck"),
    ),
    attribute="merge_status",
)
