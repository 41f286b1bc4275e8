"""Event endpoints: ``GET /events`` (the caller's own), ``GET /users/:id/events`` (a
user's, in the projects the caller may read) and ``GET /projects/:id/events``.

Filters: ``action`` and ``target_type`` (one index partition each combination),
``before`` (events before that day) and ``after`` (events after that day), ``sort`` by
id (``desc`` by default). Events about confidential issues and their notes are shown to
Reporters and up in the project's list (others read the index's ``public`` partitions),
and to their author in their own lists. Another user's list is filtered event by event
(readable project, confidential rule); the caller's own and an administrator's are not.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Selection
from fakeservice.events_feed import models
from fakeservice.events_feed.push_data import push_data
from fakeservice.members.access import can_read_project, project_role
from fakeservice.members.models import REPORTER
from fakeservice.notes.models import notes
from fakeservice.notes.views import note_view
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.projects.models import projects
from fakeservice.users.models import users
from fakeservice.users.routes import find_user_or_404
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context
from fakeservice.web.params import DATE, STR, Param
from fakeservice.web.routing import PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("events_feed")

FILTERS = (
    Param("action", STR, values=models.ACTIONS),
    Param("target_type", STR, values=models.TARGET_TYPES),
    Param("before", DATE),
    Param("after", DATE),
    Param("sort", STR, values=("asc", "desc"), default="desc"),
)


def _day(value: dt.date) -> dt.datetime:
    return dt.datetime.combine(value, dt.time(), tzinfo=dt.UTC)


def _dates(ctx: Context) -> Callable[[models.Event], bool] | None:
    before, after = ctx.params.get("before"), ctx.params.get("after")
    if before is None and after is None:
        return None
    low = _day(after) + dt.timedelta(days=1) if after is not None else None
    high = _day(before) if before is not None else None
    return lambda e: (low is None or e.created_at >= low) and (high is None or e.created_at < high)


def _visible(ctx: Context) -> Callable[[models.Event], bool]:
    """Readable projects (and confidential events for Reporters and their authors)."""
    cache: dict[int | None, tuple[bool, int]] = {}

    def access(project_id: int | None) -> tuple[bool, int]:
        if project_id not in cache:
            project = projects(ctx.store).get(project_id) if project_id is not None else None
            if project is None:
                cache[project_id] = (False, 0)
            else:
                readable = can_read_project(ctx.store, ctx.user, project, ctx.now)
                cache[project_id] = (readable, project_role(ctx.store, ctx.user, project, ctx.now))
        return cache[project_id]

    caller = ctx.user.id if ctx.user is not None else None

    def check(event: models.Event) -> bool:
        readable, role = access(event.project_id)
        if not readable:
            return False
        return not event.confidential or role >= REPORTER or event.author_id == caller

    return check


def _listed(
    ctx: Context,
    index: str,
    owner: int,
    check: Callable[[models.Event], bool] | None,
    *,
    public_only: bool = False,
) -> Any:
    p = ctx.params
    selection: Selection[models.Event] = models.select(
        ctx.store,
        index,
        owner,
        p.get("action"),
        p.get("target_type"),
        newest_first=p.get("sort") != "asc",
        public_only=public_only,
    )
    dates = _dates(ctx)
    if dates is not None or check is not None:
        selection = selection.filter(
            lambda e: (dates is None or dates(e)) and (check is None or check(e))
        )
    return ctx.paginate(selection, lambda event: event_view(ctx, event))


def event_view(ctx: Context, event: models.Event) -> dict[str, Any]:
    author = users(ctx.store).get(event.author_id)
    out: dict[str, Any] = {
        "id": event.id,
        "project_id": event.project_id,
        "action_name": event.action_name,
        "target_id": event.target_id,
        "target_iid": event.target_iid,
        "target_type": event.target_type,
        "author_id": event.author_id,
        "target_title": event.target_title,
        "created_at": iso(event.created_at),
        "author": user_ref(author, ctx.base_url),
        "imported": False,
        "imported_from": "none",
    }
    if event.push is not None:
        out["push_data"] = push_data(ctx.store, event.project_id, event.push)
    if event.target_kind == "note":
        note = notes(ctx.store).get(event.target_id)
        out["note"] = note_view(ctx.store, note, ctx.base_url) if note is not None else None
    out["author_username"] = author.username if author is not None else None
    return out


@api.get("/events", params=FILTERS, auth=REQUIRED, paginated=True)
def list_own_events(ctx: Context) -> Any:
    """The caller's own events."""
    return _listed(ctx, "author", ctx.user.id, None)


@api.get(
    "/users/:id/events",
    params=(
        Param("id", STR, required=True, description="The ID or username of the user"),
        *FILTERS,
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_user_events(ctx: Context) -> Any:
    """A user's events in the projects the caller may read."""
    user = find_user_or_404(ctx, ctx.params["id"])
    if ctx.is_admin or (ctx.user is not None and ctx.user.id == user.id):
        return _listed(ctx, "author", user.id, None)  # everything is theirs to read
    return _listed(ctx, "author", user.id, _visible(ctx))


@api.get(
    "/projects/:id/events",
    params=(
        Param("id", STR, required=True, description="The ID or URL-encoded path of the project"),
        *FILTERS,
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_project_events(ctx: Context) -> Any:
    """The project's events."""
    project = find_project_or_404(ctx, ctx.params["id"])
    reporter = project_role(ctx.store, ctx.user, project, ctx.now) >= REPORTER
    return _listed(ctx, "project", project.id, None, public_only=not reporter)
