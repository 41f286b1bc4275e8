"""Epic label events: ``GET /groups/:id/epics/:epic_id/resource_label_events`` and
``/:resource_label_event_id`` (the epic's global id, as for epic notes and as
python-gitlab sends it), recorded from ``EPIC_LABELS_CHANGED`` (an epic created with
labels, labels changed by an update). Epic labels are names, so an event keeps the name
and shows it as the epic's own label objects do."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.core.store import Store
from fakeservice.epics import models as epics
from fakeservice.epics.access import epic_group, epic_role
from fakeservice.members.models import PLANNER
from fakeservice.resource_events import models
from fakeservice.resource_events.routes import api, event_view
from fakeservice.scenarios.loader import loading
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

BASE = "/groups/:id/epics/:epic_id/resource_label_events"
PARAMS = (
    Param("id", STR, required=True, description="The ID or URL-encoded path of the group"),
    Param("epic_id", INT, required=True, description="The epic's global ID"),
)
EVENT_ID = Param("resource_label_event_id", INT, required=True, description="The event's id")


def labels_changed(
    store: Store, epic: Any, before: list[str], user_id: int | None, now: dt.datetime
) -> None:
    if user_id is None or loading():
        return
    changes = [("add", n) for n in epic.labels if n not in before]
    changes += [("remove", n) for n in before if n not in epic.labels]
    for action, name in changes:
        models.add(
            store,
            "label",
            resource_type="Epic",
            resource_id=epic.id,
            user_id=user_id,
            created_at=now,
            action=action,
            label_name=name,
        )


def _epic(ctx: Context) -> Any:
    group = epic_group(ctx)
    epic = epics.epics(ctx.store).get(ctx.params["epic_id"])
    if epic is None or epic.group_id != group.id:
        raise NotFound()
    if epic.confidential and epic_role(ctx, epic.group_id) < PLANNER:
        raise NotFound()
    return epic


@api.get(BASE, params=PARAMS, auth=REQUIRED, paginated=True)
def list_epic_resource_label_events(ctx: Context) -> Any:
    """The label events of one epic, oldest first."""
    epic = _epic(ctx)
    selection = models.of_resource(ctx.store, "label", "Epic", epic.id)
    return ctx.paginate(selection, lambda event: event_view(ctx, event))


@api.get(BASE + "/:resource_label_event_id", params=(*PARAMS, EVENT_ID), auth=REQUIRED)
def get_epic_resource_label_event(ctx: Context) -> Any:
    """One label event of one epic."""
    epic = _epic(ctx)
    found = models.find(ctx.store, "label", "Epic", epic.id, ctx.params["resource_label_event_id"])
    if found is None:
        raise NotFound()
    return event_view(ctx, found)
