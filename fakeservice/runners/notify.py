"""Telling the simulated runner that runners changed, so that stuck jobs a runner can
now run are picked up (nothing to do in a service made without the CI area)."""

from __future__ import annotations

from fakeservice.web.context import Context


def runners_changed(ctx: Context) -> None:
    simulated = getattr(ctx.service, "runner", None)
    if simulated is not None:
        simulated.runners_changed()
