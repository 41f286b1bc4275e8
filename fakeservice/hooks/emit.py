"""Queueing an event of a project for every hook it reaches.

:func:`emit` finds the project's hooks (its own and its groups') whose switch for the
trigger is on, that are executable and whose branch filter lets the push through, and
queues one delivery each; the payload is built once, only when some hook wants it.
Writes made while a scenario loads are its content, not events.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.core.store import Store
from fakeservice.hooks import deliveries as dv
from fakeservice.hooks.models import SYSTEM, Hook, branch_matches, of_owner, project_hooks
from fakeservice.hooks.outbox import outbox_of
from fakeservice.projects.models import Project
from fakeservice.scenarios.loader import loading

Payload = Callable[[str], dict[str, Any]]  # base_url -> payload
SYSTEM_TRIGGERS = ("push_hooks", "tag_push_hooks", "merge_request_hooks")


def base_url(store: Store) -> str | None:
    """The base URL of the service owning ``store`` when it sends hooks, else None."""
    box = outbox_of(store)
    return box.service.base_url if box is not None and not loading() else None


def wanted(hook: Hook, trigger: str, now: dt.datetime, branch: str | None) -> bool:
    switch = dv.TRIGGERS[trigger][0]
    if not hook.events.get(switch, False) or not hook.executable(now):
        return False
    return trigger != "push_hooks" or branch_matches(hook, branch)


def wants(store: Store, project: Project, switch: str) -> bool:
    """Whether any hook of ``project`` has ``switch`` on (whatever its state)."""
    return any(hook.events.get(switch, False) for hook in project_hooks(store, project))


def emit(
    store: Store,
    project: Project,
    trigger: str,
    payload: Payload,
    now: dt.datetime,
    *,
    branch: str | None = None,
) -> int:
    """Queue ``trigger`` for each hook of ``project`` that wants it; how many were queued."""
    url = base_url(store)
    if url is None:
        return 0
    targets = [hook for hook in project_hooks(store, project) if wanted(hook, trigger, now, branch)]
    if trigger in SYSTEM_TRIGGERS:
        targets.extend(h for h in of_owner(store, SYSTEM, 0) if wanted(h, trigger, now, None))
    if not targets:
        return 0
    body = payload(url)
    for hook in targets:
        event = "System Hook" if hook.kind == SYSTEM else None
        dv.queue(store, hook, trigger, body, instance_url=url, now=now, event=event)
    return len(targets)
