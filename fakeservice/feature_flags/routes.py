"""Feature flag endpoints of projects: ``/projects/:id/feature_flags`` (list with
``scope``, get, create, update, delete; strategies with scopes) and
``/projects/:id/feature_flags_user_lists`` (list with ``search``, get by iid, create,
update, delete).

Every operation needs the Developer role (403 below it, and for everyone when the
project's ``feature_flags_access_level`` is disabled); a caller who may not see the
project gets its 404 first. Unknown flags and lists are ``404 Not found``; validation
failures are 400 with the list of full messages.
"""

from __future__ import annotations

import json
from typing import Any

from fakeservice.core.errors import Forbidden
from fakeservice.feature_flags import models
from fakeservice.feature_flags.records import VERSION, flags, user_lists
from fakeservice.feature_flags.views import flag_view, user_list_view
from fakeservice.members.models import DEVELOPER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.projects.models import Project
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, HASH, INT, STR, Array, Invalid, Param, ParamType
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("feature_flags")


class _Json(ParamType):
    """A JSON object given as an object or as its JSON text (the service's ``JSON`` type)."""

    name = "object"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise Invalid from None
        if isinstance(value, dict):
            return value
        raise Invalid


ID = Param("id", STR, required=True)
NAME_IN_PATH = Param("feature_flag_name", STR, required=True)
IID = Param("iid", INT, required=True)
FLAGS = "/projects/:id/feature_flags"
LISTS = "/projects/:id/feature_flags_user_lists"


def _scopes(editing: bool) -> Param:
    extra = (Param("id", INT), Param("_destroy", BOOL)) if editing else ()
    return Param(
        "scopes",
        Array(HASH),
        items=(Param("environment_scope", STR, required=not editing), *extra),
    )


def _strategies(editing: bool) -> Param:
    extra = (Param("id", INT), Param("_destroy", BOOL)) if editing else ()
    return Param(
        "strategies",
        Array(HASH),
        items=(
            Param("name", STR, required=not editing),
            Param("parameters", _Json(), required=not editing),
            Param("user_list_id", INT),
            _scopes(editing),
            *extra,
        ),
    )


def _project(ctx: Context) -> Project:
    project = find_project_or_404(ctx, ctx.params["id"])
    if project.features.get("feature_flags", "enabled") == "disabled":
        raise Forbidden()
    require_access(ctx, project, DEVELOPER)
    return project


def _given(ctx: Context, names: tuple[str, ...]) -> dict[str, Any]:
    return {k: ctx.params[k] for k in names if k in ctx.params}


@api.get(
    FLAGS,
    params=(ID, Param("scope", STR, values=("enabled", "disabled"))),
    paginated=True,
    summary="List a project's feature flags",
)
def list_flags(ctx: Context) -> Any:
    project = _project(ctx)
    scope = ctx.params.get("scope")
    if scope is None:
        selection = flags(ctx.store).select("project", [project.id])
    else:
        selection = flags(ctx.store).select("project_active", [(project.id, scope == "enabled")])
    return ctx.paginate(selection, lambda f: flag_view(ctx.store, f))


@api.get(f"{FLAGS}/:feature_flag_name", params=(ID, NAME_IN_PATH), summary="Get a feature flag")
def get_flag(ctx: Context) -> Any:
    project = _project(ctx)
    return flag_view(
        ctx.store, models.find_flag(ctx.store, project.id, ctx.params["feature_flag_name"])
    )


@api.post(
    FLAGS,
    params=(
        ID,
        Param("name", STR, required=True),
        Param("description", STR),
        Param("active", BOOL),
        Param("version", STR, values=(VERSION,)),
        _strategies(editing=False),
    ),
    auth=REQUIRED,
    summary="Create a feature flag",
)
def create_flag(ctx: Context) -> Any:
    project = _project(ctx)
    p = ctx.params
    flag = models.create_flag(
        ctx.store,
        project.id,
        ctx.now,
        name=p["name"],
        description=p.get("description"),
        active=True if p.get("active") is None else p["active"],
        strategies=p.get("strategies") or [],
    )
    return flag_view(ctx.store, flag)


@api.put(
    f"{FLAGS}/:feature_flag_name",
    params=(
        ID,
        NAME_IN_PATH,
        Param("name", STR),
        Param("description", STR),
        Param("active", BOOL),
        _strategies(editing=True),
    ),
    auth=REQUIRED,
    summary="Update a feature flag",
)
def update_flag(ctx: Context) -> Any:
    project = _project(ctx)
    flag = models.find_flag(ctx.store, project.id, ctx.params["feature_flag_name"])
    changes = _given(ctx, ("name", "description", "active", "strategies"))
    return flag_view(ctx.store, models.update_flag(ctx.store, flag, ctx.now, changes))


@api.delete(
    f"{FLAGS}/:feature_flag_name",
    params=(ID, NAME_IN_PATH),
    auth=REQUIRED,
    summary="Delete a feature flag",
)
def delete_flag(ctx: Context) -> Any:
    project = _project(ctx)
    flag = models.find_flag(ctx.store, project.id, ctx.params["feature_flag_name"])
    shown = flag_view(ctx.store, flag)
    models.delete_flag(ctx.store, flag)
    return shown


@api.get(
    LISTS,
    params=(ID, Param("search", STR)),
    paginated=True,
    summary="List a project's feature flag user lists",
)
def list_user_lists(ctx: Context) -> Any:
    project = _project(ctx)
    selection = user_lists(ctx.store).select("project", [project.id])
    search = (ctx.params.get("search") or "").lower()
    if search:
        selection = selection.filter(lambda u: search in u.name.lower())
    return ctx.paginate(selection, lambda u: user_list_view(u, project.path_with_namespace))


@api.get(f"{LISTS}/:iid", params=(ID, IID), summary="Get a feature flag user list")
def get_user_list(ctx: Context) -> Any:
    project = _project(ctx)
    found = models.find_list(ctx.store, project.id, ctx.params["iid"])
    return user_list_view(found, project.path_with_namespace)


@api.post(
    LISTS,
    params=(ID, Param("name", STR, required=True), Param("user_xids", STR, required=True)),
    auth=REQUIRED,
    summary="Create a feature flag user list",
)
def create_user_list(ctx: Context) -> Any:
    project = _project(ctx)
    p = ctx.params
    found = models.create_list(ctx.store, project.id, ctx.now, p["name"], p["user_xids"])
    return user_list_view(found, project.path_with_namespace)


@api.put(
    f"{LISTS}/:iid",
    params=(ID, IID, Param("name", STR), Param("user_xids", STR)),
    auth=REQUIRED,
    summary="Update a feature flag user list",
)
def update_user_list(ctx: Context) -> Any:
    project = _project(ctx)
    found = models.find_list(ctx.store, project.id, ctx.params["iid"])
    changes = _given(ctx, ("name", "user_xids"))
    updated = models.update_list(ctx.store, found, ctx.now, changes)
    return user_list_view(updated, project.path_with_namespace)


@api.delete(
    f"{LISTS}/:iid",
    params=(ID, IID),
    auth=REQUIRED,
    status=204,
    summary="Delete a feature flag user list",
)
def delete_user_list(ctx: Context) -> Any:
    project = _project(ctx)
    models.delete_list(ctx.store, models.find_list(ctx.store, project.id, ctx.params["iid"]))
    return None
