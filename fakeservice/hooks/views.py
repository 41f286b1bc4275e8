"""JSON shapes of hooks: project, group and system hooks (write-only secrets left out,
custom headers and URL variables by key only), and of delivered hook events."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.hooks.models import GROUP, PROJECT, SYSTEM_FLAGS, Hook


def _keys(values: dict[str, str]) -> list[dict[str, str]]:
    return [{"key": key} for key in values]


def hook_view(hook: Hook, now: dt.datetime) -> dict[str, Any]:
    out: dict[str, Any] = {"id": hook.id, "url": hook.url, "name": hook.name}
    out["description"] = hook.description
    if hook.kind == PROJECT:
        out["project_id"] = hook.owner_id
    elif hook.kind == GROUP:
        out["group_id"] = hook.owner_id
    flags = SYSTEM_FLAGS if hook.kind not in (PROJECT, GROUP) else hook.events
    for name in flags:
        out[name] = hook.events.get(name, False)
        if name == "push_events" and hook.kind != "system":
            out["push_events_branch_filter"] = hook.push_events_branch_filter
            out["branch_filter_strategy"] = hook.branch_filter_strategy
    if hook.kind in (PROJECT, GROUP):
        out["repository_update_events"] = False
    out["enable_ssl_verification"] = hook.enable_ssl_verification
    out["alert_status"] = hook.alert_status(now)
    out["disabled_until"] = iso(hook.disabled_until)
    out["url_variables"] = _keys(hook.url_variables)
    out["created_at"] = iso(hook.created_at)
    if hook.kind in (PROJECT, GROUP):
        out["custom_webhook_template"] = hook.custom_webhook_template
        out["custom_headers"] = _keys(hook.custom_headers)
    return out


def event_view(delivery: Any) -> dict[str, Any]:
    """One hook event as ``GET /projects/:id/hooks/:hook_id/events`` lists it."""
    return {
        "id": delivery.id,
        "url": delivery.url,
        "trigger": delivery.trigger,
        "request_headers": delivery.request_headers,
        "request_data": delivery.request_data(),
        "response_headers": delivery.response_headers,
        "response_body": delivery.response_body,
        "execution_duration": delivery.execution_duration,
        "response_status": delivery.response_status,
    }
