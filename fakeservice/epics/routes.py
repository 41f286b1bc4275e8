"""Epic endpoints (seed 001 §4.6; paid tier, every call authenticated):

* ``GET /groups/:id/epics``: every filter of the spec, epics of subgroups by default;
* ``GET /groups/:id/epics/:epic_iid``, ``POST /groups/:id/epics``,
  ``PUT /groups/:id/epics/:epic_iid`` (``state_event`` close/reopen through the epic
  machine; ``labels`` replaces, an empty value clears, ``add_labels``/``remove_labels``),
  ``DELETE /groups/:id/epics/:epic_iid`` (Owners and Planners, 204);
* ``POST /groups/:id/epics/:epic_iid/todo`` (and the ``/todos`` spelling): 201, or 304
  when the caller has a pending to-do on the epic.

A group the caller may not see answers ``404 Group Not Found``; a plan without epics
``403 Forbidden``; an epic the caller may not see (unknown, or confidential below the
Planner role) ``404 Not found``. Creating and editing need the Planner role (or higher);
``created_at`` and ``updated_at`` are honoured for administrators and group Owners only.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound, ParamError
from fakeservice.epics import filters, models, notes, todos
from fakeservice.epics.access import epic_group, epic_role
from fakeservice.epics.machines import STATE_EVENTS
from fakeservice.epics.views import epic_view
from fakeservice.groups.models import Namespace
from fakeservice.members.access import group_role
from fakeservice.members.models import OWNER, PLANNER
from fakeservice.notes import awards
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATE, DATETIME, HASH, INT, STR, Array, Invalid, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("epics")

PATH = "/groups/:id/epics"
ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the group")
IID = Param("epic_iid", INT, required=True, description="The internal ID of the epic")
LABELS = Array(STR, comma=True, scalar=True)
DESCRIPTION = Param(
    "description",
    STR,
    check=lambda v: len(v) <= models.MAX_DESCRIPTION,
    description="At most 1,048,576 characters",
)
DATES = (
    Param("start_date_is_fixed", BOOL, description="Use start_date_fixed as the start date"),
    Param("start_date_fixed", DATE, description="The fixed start date"),
    Param("due_date_is_fixed", BOOL, description="Use due_date_fixed as the due date"),
    Param("due_date_fixed", DATE, description="The fixed due date"),
)
LIST_PARAMS = (
    ID,
    Param("author_id", INT, description="Epics by this author"),
    Param("labels", LABELS, description="Comma-separated label names (all of them); None, Any"),
    Param("with_labels_details", BOOL, default=False, description="Labels as objects"),
    Param("order_by", STR, default="created_at", values=models.ORDERS),
    Param("sort", STR, default="desc", values=("asc", "desc")),
    Param("search", STR, description="In titles and descriptions"),
    Param("state", STR, default="all", values=("opened", "closed", "all")),
    Param("created_after", DATETIME),
    Param("created_before", DATETIME),
    Param("updated_after", DATETIME),
    Param("updated_before", DATETIME),
    Param("include_ancestor_groups", BOOL, default=False),
    Param("include_descendant_groups", BOOL, default=True),
    Param("my_reaction_emoji", STR, description="An emoji name, None or Any: the caller's"),
    Param("not", HASH, description="Negated filters: author_id, labels"),
)


_group = epic_group
_role = epic_role


def visible_epic(ctx: Context, group: Namespace) -> models.Epic:
    epic = models.find(ctx.store, group, ctx.params["epic_iid"])
    if epic is None or (epic.confidential and _role(ctx, epic.group_id) < PLANNER):
        raise NotFound()
    return epic


def render_epic(ctx: Context, epic: models.Epic, *, single: bool = True) -> dict[str, Any]:
    return epic_view(
        ctx.store,
        epic,
        ctx.base_url,
        can_edit=_role(ctx, epic.group_id) >= PLANNER,
        single=single,
        subscribed=ctx.user is not None and ctx.user.id == epic.author_id,
    )


def _backdating(ctx: Context, group: Namespace) -> bool:
    return ctx.is_admin or _role(ctx, group.id) >= OWNER


def _negated(ctx: Context) -> dict[str, Any]:
    raw = ctx.params.get("not") or {}
    out: dict[str, Any] = {}
    errors: list[str] = []
    for key, kind, label in (
        ("author_id", INT, "not[author_id]"),
        ("labels", LABELS, "not[labels]"),
    ):
        if raw.get(key) is None:
            continue
        try:
            out[key] = kind.coerce(raw[key])
        except Invalid:
            errors.append(f"{label} is invalid")
    if errors:
        raise ParamError(errors)
    return out


@api.get(PATH, params=LIST_PARAMS, auth=REQUIRED, paginated=True)
def list_epics(ctx: Context) -> Any:
    """List a group's epics (and its subgroups', by default)."""
    group = _group(ctx)
    p = dict(ctx.params)
    p["not"] = _negated(ctx)
    store = ctx.store
    groups = filters.list_groups(store, ctx.user, group, p, ctx.now)
    roles = {g.id: group_role(store, ctx.user, g, ctx.now) for g in groups}
    reacted = None
    if p.get("my_reaction_emoji") is not None:
        reacted = awards.reaction_predicate(store, ctx.user.id, p["my_reaction_emoji"])
    where = filters.predicate(p, lambda group_id: roles.get(group_id, 0) >= PLANNER, reacted)
    selection = models.epics(store).select(
        f"group_{p['order_by']}", [g.id for g in groups], where=where, reverse=p["sort"] == "desc"
    )
    details = bool(p.get("with_labels_details"))
    return ctx.paginate(
        selection,
        lambda epic: epic_view(
            store,
            epic,
            ctx.base_url,
            can_edit=roles.get(epic.group_id, 0) >= PLANNER,
            label_objects=details,
        ),
    )


@api.get(PATH + "/:epic_iid", params=(ID, IID), auth=REQUIRED)
def get_epic(ctx: Context) -> Any:
    """Get one epic."""
    return render_epic(ctx, visible_epic(ctx, _group(ctx)))


@api.post(
    PATH,
    params=(
        ID,
        Param("title", STR, required=True, description="The epic's title"),
        Param("labels", LABELS, description="Comma-separated label names"),
        DESCRIPTION,
        Param("confidential", BOOL, description="Whether the epic is confidential"),
        Param("created_at", DATETIME, description="Administrators and group Owners only"),
        *DATES,
        Param("parent_id", INT, description="The global ID of the parent epic"),
    ),
    auth=REQUIRED,
)
def create_epic(ctx: Context) -> Any:
    """Create an epic (Planner and up)."""
    group = _group(ctx)
    if _role(ctx, group.id) < PLANNER:
        raise Forbidden()
    fields = {k: v for k, v in ctx.params.items() if k != "id"}
    if not _backdating(ctx, group):
        fields.pop("created_at", None)
    epic = models.create_epic(ctx.store, group, ctx.user.id, ctx.now, fields)
    return render_epic(ctx, epic)


UPDATABLE = ("title", "description", "confidential", "parent_id", *(p.name for p in DATES))


@api.put(
    PATH + "/:epic_iid",
    params=(
        ID,
        IID,
        Param("title", STR, allow_blank=False),
        DESCRIPTION,
        Param("confidential", BOOL),
        Param("labels", LABELS, description="Replaces the labels; empty clears them"),
        Param("add_labels", LABELS),
        Param("remove_labels", LABELS),
        Param("updated_at", DATETIME, description="Administrators and group Owners only"),
        *DATES,
        Param("parent_id", INT, description="The global ID of the parent epic"),
        Param("state_event", STR, values=STATE_EVENTS, description="close or reopen"),
    ),
    auth=REQUIRED,
)
def update_epic(ctx: Context) -> Any:
    """Edit, close or reopen an epic (Planner and up)."""
    group = _group(ctx)
    epic = visible_epic(ctx, group)
    if _role(ctx, epic.group_id) < PLANNER:
        raise Forbidden()
    p = ctx.params
    changes = {name: p[name] for name in UPDATABLE if name in p}
    if "labels" in p or "add_labels" in p or "remove_labels" in p:
        labels = set(epic.labels) if "labels" not in p else set(p.get("labels") or [])
        labels |= set(p.get("add_labels") or [])
        labels -= set(p.get("remove_labels") or [])
        changes["labels"] = sorted(labels)
    if p.get("updated_at") is not None and _backdating(ctx, group):
        changes["updated_at"] = p["updated_at"]
    state = epic.state
    models.update_epic(
        ctx.store, epic, ctx.now, changes, user_id=ctx.user.id, state_event=p.get("state_event")
    )
    if epic.state != state:
        notes.state_note(ctx.store, epic, ctx.user.id, ctx.now)
    return render_epic(ctx, epic)


@api.delete(PATH + "/:epic_iid", params=(ID, IID), auth=REQUIRED)
def delete_epic(ctx: Context) -> Any:
    """Delete an epic (group Owners and Planners); its children lose their parent."""
    group = _group(ctx)
    epic = visible_epic(ctx, group)
    role = _role(ctx, epic.group_id)
    if role != PLANNER and role < OWNER:
        raise Forbidden()
    notes.forget(ctx.store, epic)
    models.delete_epic(ctx.store, epic)
    return None


def _todo(ctx: Context) -> Any:
    group = _group(ctx)
    epic = visible_epic(ctx, group)
    todo = todos.mark(ctx.store, epic, ctx.user.id, ctx.now)
    return todos.todo_view(ctx.store, todo, epic, ctx.base_url)


@api.post(PATH + "/:epic_iid/todo", params=(ID, IID), auth=REQUIRED)
def create_epic_todo(ctx: Context) -> Any:
    """Add a to-do on the epic for the caller (304 when one is pending)."""
    return _todo(ctx)


@api.post(PATH + "/:epic_iid/todos", params=(ID, IID), auth=REQUIRED)
def create_epic_todos(ctx: Context) -> Any:
    """The same, as the main JavaScript client spells it."""
    return _todo(ctx)
