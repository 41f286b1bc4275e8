"""Application settings endpoints (administrators only): ``GET /application/settings`` and
``PUT /application/settings``; and the control plane's ``/_fake/background`` (how
long-running operations run: ``mode`` instant, timed or manual, and ``step_seconds``).

An update validates every given field first (types: 400 ``{"error": ...}``; model rules:
400 ``{"message": {field: [...]}}``) and changes nothing unless all are valid.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ValidationFailed
from fakeservice.instance import settings
from fakeservice.instance.background import reschedule_all
from fakeservice.instance.models import BACKGROUND_MODES, instance
from fakeservice.instance.router import api
from fakeservice.instance.views import settings_view
from fakeservice.web.context import Context
from fakeservice.web.params import FLOAT, STR, AtLeastOne, Param
from fakeservice.web.routing import ADMIN, NO_AUTH


@api.get("/application/settings", auth=ADMIN)
def get_settings(ctx: Context) -> Any:
    """The instance's application settings."""
    return settings_view(ctx.store, ctx.service.clock.start)


@api.put("/application/settings", params=settings.PARAMS, auth=ADMIN)
def update_settings(ctx: Context) -> Any:
    """Change application settings; answers every setting."""
    changes = settings.normalized(ctx.params)
    errors = settings.model_errors(ctx.store, changes)
    if errors:
        raise ValidationFailed(errors)
    settings.apply(ctx.store, changes, ctx.now)
    return settings_view(ctx.store, ctx.service.clock.start)


def background_state(ctx: Context) -> dict[str, Any]:
    record = instance(ctx.store)
    return {"mode": record.background_mode, "step_seconds": record.step_seconds}


@api.get("/_fake/background", prefix="", auth=NO_AUTH)
def get_background(ctx: Context) -> Any:
    """How storage moves, exports and imports run."""
    return background_state(ctx)


@api.post(
    "/_fake/background",
    params=(
        Param("mode", STR, values=BACKGROUND_MODES, description="instant, timed or manual"),
        Param("step_seconds", FLOAT, check=lambda v: v >= 0, description="timed step length"),
    ),
    constraints=(AtLeastOne(("mode", "step_seconds")),),
    prefix="",
    auth=NO_AUTH,
    status=200,
)
def set_background(ctx: Context) -> Any:
    """Set the background mode and step length; unfinished work is planned again."""
    record = instance(ctx.store)
    if ctx.get("mode") is not None:
        record.background_mode = ctx.params["mode"]
    if ctx.get("step_seconds") is not None:
        record.step_seconds = ctx.params["step_seconds"]
    reschedule_all(ctx.store, ctx.now)
    return background_state(ctx)
