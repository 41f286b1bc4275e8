"""``/features`` (administrators): list the stored flags, list the definitions the fake
knows, set a gate (``POST /features/:name``, 201 with the feature), delete a flag (204,
also when it was not stored)."""

from __future__ import annotations

from typing import Any

from fakeservice.features.definitions import DEFINITIONS
from fakeservice.features.models import features, remove
from fakeservice.features.setting import set_feature
from fakeservice.features.targets import TARGET_PARAMS
from fakeservice.features.views import feature_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, STR, MutuallyExclusive, Param
from fakeservice.web.routing import ADMIN, AreaRouter

api = AreaRouter("features")
NAME = Param("name", STR, required=True, description="The feature's name")
SET_PARAMS = (
    NAME,
    Param("value", STR, required=True, description="true, false or a percentage"),
    Param("key", STR, description="percentage_of_actors or percentage_of_time (default)"),
    *(Param(name, STR, description=f"{name} gate (comma-separated)") for name in TARGET_PARAMS),
    Param("force", BOOL, description="Skip the flag name checks"),
)
SET_CONSTRAINTS = tuple(MutuallyExclusive(("key", name)) for name in TARGET_PARAMS)


@api.get("/features", auth=ADMIN)
@api.get("/features/", auth=ADMIN, summary="List features (python-gitlab's path)")
def list_features(ctx: Context) -> Any:
    """Every stored feature with its gates, by name."""
    return [feature_view(f) for f in features(ctx.store).select("by_name")]


@api.get("/features/definitions", auth=ADMIN)
def list_definitions(ctx: Context) -> Any:
    """The definitions of the flags the fake consults, by name."""
    return [DEFINITIONS[name].view() for name in sorted(DEFINITIONS)]


@api.post(
    "/features/:name",
    params=SET_PARAMS,
    constraints=SET_CONSTRAINTS,
    auth=ADMIN,
)
def set_gate(ctx: Context) -> Any:
    """Set a gate of a feature (created when new)."""
    return feature_view(set_feature(ctx.store, ctx.params["name"], ctx.params))


@api.delete("/features/:name", params=(NAME,), auth=ADMIN)
def delete_feature(ctx: Context) -> Any:
    """Forget a feature's gates."""
    remove(ctx.store, ctx.params["name"])
    return None
