"""``detailed_status`` of pipelines and jobs, as the real service renders its status
objects (icon, text, label, group, tooltip, has_details, details_path, illustration,
favicon; jobs also the ``action`` a user may take: retry, cancel or play).

A success that tolerated failures (a job with ``allow_failure`` that failed) is the
``success-with-warnings`` group; such a failed job is ``failed-with-warnings``.
"""

from __future__ import annotations

from typing import Any

# status -> (icon suffix, text, label, group)
_STATUSES: dict[str, tuple[str, str, str, str]] = {
    "created": ("created", "Created", "created", "created"),
    "waiting_for_resource": ("pending", "Waiting", "waiting for resource", "waiting-for-resource"),
    "preparing": ("preparing", "Preparing", "preparing", "preparing"),
    "pending": ("pending", "Pending", "pending", "pending"),
    "running": ("running", "Running", "running", "running"),
    "success": ("success", "Passed", "passed", "success"),
    "failed": ("failed", "Failed", "failed", "failed"),
    "canceling": ("canceled", "Canceling", "canceling", "canceling"),
    "canceled": ("canceled", "Canceled", "canceled", "canceled"),
    "skipped": ("skipped", "Skipped", "skipped", "skipped"),
    "manual": ("manual", "Manual", "manual action", "manual"),
    "scheduled": ("scheduled", "Scheduled", "scheduled", "scheduled"),
}
_WARNING = ("warning", "Warning", "passed with warnings", "success-with-warnings")
_ACTIONS = {
    "retry": ("retry", "Retry", "Run this job again"),
    "cancel": ("cancel", "Cancel", "Cancel this job"),
    "play": ("play", "Run", "Run job"),
}
RETRYABLE = frozenset({"success", "failed", "canceled"})
CANCELABLE = frozenset(
    {"created", "waiting_for_resource", "preparing", "pending", "running", "scheduled"}
)


def _shape(status: tuple[str, str, str, str], tooltip: str, details_path: str) -> dict[str, Any]:
    icon, text, label, group = status
    return {
        "icon": f"status_{icon}",
        "text": text,
        "label": label,
        "group": group,
        "tooltip": tooltip,
        "has_details": True,
        "details_path": details_path,
        "illustration": None,
        "favicon": f"/assets/ci_favicons/favicon_status_{icon}.png",
    }


def pipeline_status(status: str, details_path: str, *, warnings: bool) -> dict[str, Any]:
    """A pipeline's ``detailed_status``."""
    found = _WARNING if warnings and status == "success" else _STATUSES.get(status)
    found = found or (status, status.capitalize(), status, status)
    return _shape(found, found[2], details_path)


def job_status(
    status: str,
    details_path: str,
    *,
    allow_failure: bool,
    failure_reason: str | None,
    retryable: bool = True,
) -> dict[str, Any]:
    """A job's ``detailed_status``, with the action its state offers."""
    found = _STATUSES.get(status) or (status, status.capitalize(), status, status)
    tooltip = found[2]
    if status == "failed":
        if allow_failure:
            found = ("warning", "Failed", "failed (allowed to fail)", "failed-with-warnings")
            tooltip = "failed - (allowed to fail)"
        if failure_reason:
            tooltip = f"failed - ({failure_reason.replace('_', ' ')})"
    out = _shape(found, tooltip, details_path)
    action = (
        "play"
        if status == "manual"
        else "cancel"
        if status in CANCELABLE
        else "retry"
        if status in RETRYABLE and retryable
        else None
    )
    if action is not None:
        icon, title, button = _ACTIONS[action]
        out["action"] = {
            "icon": icon,
            "title": title,
            "path": f"{details_path}/{action}",
            "method": "post",
            "button_title": button,
        }
    return out
