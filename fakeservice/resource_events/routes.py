"""Resource event endpoints, declared in a loop over the kinds and the issuables:
``GET /projects/:id/issues/:issue_iid/resource_{label,state,milestone}_events`` and
``.../:resource_{kind}_event_id``, the same under ``merge_requests/:merge_request_iid``.

Lists are the issuable's events oldest first (one index partition), paginated by offset;
a single event of another issuable, or an unknown id, is 404. The issuable is found as
its own endpoints find it (confidential issues hidden, merge requests need the feature).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import NotFound
from fakeservice.epics.views import label_details
from fakeservice.issues.routes import IID as ISSUE_IID
from fakeservice.issues.routes import PROJECT_ID, find_issue
from fakeservice.labels.models import labels
from fakeservice.labels.views import label_basic
from fakeservice.merge_requests import access
from fakeservice.merge_requests.routes import IID as MR_IID
from fakeservice.milestones.models import milestones
from fakeservice.milestones.views import milestone_view
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.resource_events import models
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context
from fakeservice.web.params import INT, Param
from fakeservice.web.routing import PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("resource_events")

Finder = Callable[[Context], Any]


def _issue(ctx: Context) -> Any:
    project = find_project_or_404(ctx, ctx.params["id"])
    return find_issue(ctx, project, ctx.params["issue_iid"])


def _merge_request(ctx: Context) -> Any:
    return access.merge_request(ctx)[1]


# resource type, path segment, its iid parameter, how the issuable is found, noun, auth
# (as the issuable's own GET)
ISSUABLES: tuple[tuple[str, str, Param, Finder, str, str], ...] = (
    ("Issue", "issues/:issue_iid", ISSUE_IID, _issue, "issue", PUBLIC),
    ("MergeRequest", "merge_requests/:merge_request_iid", MR_IID, _merge_request, "mr", REQUIRED),
)


def event_view(ctx: Context, event: models.ResourceEvent) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": event.id,
        "user": user_ref(users(ctx.store).get(event.user_id), ctx.base_url),
        "created_at": iso(event.created_at),
        "resource_type": event.resource_type,
        "resource_id": event.resource_id,
    }
    if event.kind == "label" and event.label_name is not None:
        out["label"] = label_details(event.label_name)
        out["action"] = event.action
    elif event.kind == "label":
        label = labels(ctx.store).get(event.target_id)
        out["label"] = label_basic(label) if label is not None else None
        out["action"] = event.action
    elif event.kind == "milestone":
        milestone = milestones(ctx.store).get(event.target_id)
        shown = milestone_view(ctx.store, milestone, ctx.base_url, ctx.now) if milestone else None
        out["milestone"] = shown
        out["action"] = event.action
        out["state"] = event.state
    else:
        out["state"] = event.state
    return out


def _declare(
    kind: str, resource_type: str, segment: str, iid: Param, find: Finder, noun: str, auth: str
) -> None:
    base = f"/projects/:id/{segment}/resource_{kind}_events"
    event_id = f"resource_{kind}_event_id"

    def list_events(ctx: Context) -> Any:
        record = find(ctx)
        selection = models.of_resource(ctx.store, kind, resource_type, record.id)
        return ctx.paginate(selection, lambda event: event_view(ctx, event))

    def get_event(ctx: Context) -> Any:
        record = find(ctx)
        found = models.find(ctx.store, kind, resource_type, record.id, ctx.params[event_id])
        if found is None:
            raise NotFound()
        return event_view(ctx, found)

    list_events.__name__ = f"list_{noun}_resource_{kind}_events"
    list_events.__doc__ = f"The {kind} events of one {noun}, oldest first."
    get_event.__name__ = f"get_{noun}_resource_{kind}_event"
    get_event.__doc__ = f"One {kind} event of one {noun}."
    api.get(base, params=(PROJECT_ID, iid), auth=auth, paginated=True)(list_events)
    one = Param(event_id, INT, required=True, description=f"The {kind} event's id")
    api.get(f"{base}/:{event_id}", params=(PROJECT_ID, iid, one), auth=auth)(get_event)


for _kind in models.KINDS:
    for _issuable in ISSUABLES:
        _declare(_kind, *_issuable)
