"""Hook deliveries as records: each POST a hook is due to receive is a :class:`Delivery`
(queued when the event happens, inside the triggering write), sent later outside the
store lock (:mod:`fakeservice.hooks.outbox`), and kept with its answer: the journal of
``GET /_fake/hooks/deliveries`` and the service's ``GET /projects/:id/hooks/:hook_id/events``.

Headers follow the service's (``X-Service-Event: Push Hook``, ``-Token``, ``-Event-UUID``,
``-Webhook-UUID``, ``-Instance``) with the service's vendor header prefix. UUIDs are
derived from the store's sequences and timestamps come from the service clock, so the
same requests give the same deliveries.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import uuid
from typing import Any

import attrs

from fakeservice.core.store import Store, Table
from fakeservice.hooks.machines import DELIVERY_MACHINE
from fakeservice.hooks.models import Hook, hooks, interpolated
from fakeservice.web.vendor_headers import header_prefix

QUEUED = "queued"
USER_AGENT = "GitLab/17.6.0-ee"

# trigger → (the hook's switch, the event header's value)
TRIGGERS: dict[str, tuple[str, str]] = {
    "push_hooks": ("push_events", "Push Hook"),
    "tag_push_hooks": ("tag_push_events", "Tag Push Hook"),
    "issue_hooks": ("issues_events", "Issue Hook"),
    "confidential_issue_hooks": ("confidential_issues_events", "Confidential Issue Hook"),
    "note_hooks": ("note_events", "Note Hook"),
    "confidential_note_hooks": ("confidential_note_events", "Confidential Note Hook"),
    "merge_request_hooks": ("merge_requests_events", "Merge Request Hook"),
    "job_hooks": ("job_events", "Job Hook"),
    "pipeline_hooks": ("pipeline_events", "Pipeline Hook"),
    "wiki_page_hooks": ("wiki_page_events", "Wiki Page Hook"),
    "deployment_hooks": ("deployment_events", "Deployment Hook"),
    "release_hooks": ("releases_events", "Release Hook"),
    "emoji_hooks": ("emoji_events", "Emoji Hook"),
    "member_hooks": ("member_events", "Member Hook"),
    "subgroup_hooks": ("subgroup_events", "Subgroup Hook"),
    "repository_update_hooks": ("repository_update_events", "System Hook"),
}


@attrs.define(slots=True)
class Delivery:
    id: int
    hook_id: int
    hook_kind: str
    owner_id: int
    trigger: str
    url: str
    request_headers: dict[str, str]
    body: str
    created_at: dt.datetime
    state: str = QUEUED
    response_status: str | None = None
    response_headers: dict[str, str] = attrs.field(factory=dict)
    response_body: str = ""
    error: str | None = None
    execution_duration: float = 0.0
    delivered_at: dt.datetime | None = None

    def request_data(self) -> Any:
        return json.loads(self.body)


def deliveries(store: Store) -> Table[Delivery]:
    return store.tables["hook_deliveries"]


def install(store: Store) -> None:
    table = store.table("hook_deliveries")
    table.add_sorted("queued", lambda d: QUEUED if d.state == QUEUED else None)
    table.add_sorted("hook", lambda d: d.hook_id)


def stable_uuid(*parts: object) -> str:
    """A version-4 shaped UUID derived from ``parts`` (no randomness)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def render_body(hook: Hook, payload: dict[str, Any]) -> str:
    """The JSON body: the payload, or the hook's custom template with ``{{path.to.key}}``
    filled from it."""
    template = hook.custom_webhook_template
    if not template:
        return json.dumps(payload, separators=(",", ":"))

    def value(path: str) -> str:
        found: Any = payload
        for part in path.strip().split("."):
            found = found.get(part) if isinstance(found, dict) else None
        return json.dumps(found)[1:-1] if isinstance(found, str) else json.dumps(found)

    out, rest = [], template
    while "{{" in rest and "}}" in rest.split("{{", 1)[1]:
        head, tail = rest.split("{{", 1)
        name, rest = tail.split("}}", 1)
        out.extend((head, value(name)))
    out.append(rest)
    return "".join(out)


def queue(
    store: Store,
    hook: Hook,
    trigger: str,
    payload: dict[str, Any],
    *,
    instance_url: str,
    now: dt.datetime,
    event: str | None = None,
) -> Delivery:
    """Record one delivery of ``payload`` to ``hook`` (sent later)."""
    delivery_id = store.next_id("hook_deliveries")
    prefix = header_prefix(store)
    event_uuid = stable_uuid("event", delivery_id)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Idempotency-Key": stable_uuid("idempotency", delivery_id),
        f"{prefix}Event": event or TRIGGERS[trigger][1],
        f"{prefix}Webhook-UUID": stable_uuid("webhook", hook.kind, hook.id),
        f"{prefix}Instance": instance_url,
        f"{prefix}Event-UUID": event_uuid,
    }
    if hook.token:
        headers[f"{prefix}Token"] = hook.token
    headers.update(hook.custom_headers)
    record = Delivery(
        id=delivery_id,
        hook_id=hook.id,
        hook_kind=hook.kind,
        owner_id=hook.owner_id,
        trigger=trigger,
        url=interpolated(hook),
        request_headers=headers,
        body=render_body(hook, payload),
        created_at=now,
    )
    return deliveries(store).insert(record)


def fire(store: Store, record: Delivery, event: str, **changes: Any) -> None:
    DELIVERY_MACHINE.fire(record, event)
    deliveries(store).update(record, **changes)


def forget_hook(store: Store, hook: Hook) -> None:
    for record in list(deliveries(store).select("hook", [hook.id])):
        deliveries(store).delete(record)


def hook_of(store: Store, record: Delivery) -> Hook | None:
    return hooks(store).get(record.hook_id)
