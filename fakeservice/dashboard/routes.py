"""The dashboard's Starlette routes.

* ``GET /_fake/dashboard``: the page (static HTML, JS and CSS under
  ``/_fake/dashboard/static/``, no network needed; ``/_fake/dashboard/`` redirects to it);
* ``GET /_fake/dashboard/state``: everything the page shows, as JSON: the panels
  (:mod:`.panels`), the clock, the runner's settings, faults, rate limits and the newest
  journal entries;
* ``GET /_fake/events``: a server-sent event stream of ``journal`` and ``transition``
  events (:mod:`.events`), with a comment every :data:`KEEPALIVE_SECONDS` so proxies and
  the server notice a client that went away.

The page acts through the control plane's own endpoints (``/_fake/clock``,
``/_fake/ci/jobs/:id/finish``, ``/_fake/faults``, ``/_fake/rate_limits``...).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from fakeservice.control.clocks import clock_info
from fakeservice.dashboard.events import EventHub
from fakeservice.dashboard.panels import panels_state

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

STATIC = Path(__file__).parent / "static"
JOURNAL_ROWS = 100
KEEPALIVE_SECONDS = 15.0


def dashboard_state(service: FakeService) -> dict[str, Any]:
    """What the dashboard shows, as JSON (due runner events run first, as on a request)."""
    with service.store.lock:
        service.runner.catch_up()
        return {
            "clock": clock_info(service.clock),
            "runner": service.runner.settings(),
            "panels": panels_state(service),
            "faults": [rule.to_json() for rule in service.faults.rules],
            "rate_limits": [rule.to_json() for rule in service.rate_limits.rules],
            "journal": [entry.to_json() for entry in service.journal.tail(JOURNAL_ROWS)],
        }


def sse(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def event_stream(hub: EventHub) -> AsyncIterator[str]:
    subscriber = hub.subscribe()
    try:
        yield "retry: 1000\n\n" + sse("hello", {"listening": hub.listening})
        while True:
            try:
                event = await asyncio.wait_for(subscriber.queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if event is None:
                return
            yield sse(*event)
    finally:
        hub.unsubscribe(subscriber)


def dashboard_routes(service: FakeService) -> list[BaseRoute]:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def to_page(request: Request) -> Response:
        # relative, so that it works wherever the fake is mounted
        return RedirectResponse("../dashboard", status_code=308)

    async def state(request: Request) -> Response:
        return JSONResponse(dashboard_state(service), headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        return StreamingResponse(
            event_stream(service.events),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    return [
        Route("/_fake/dashboard", page, name="dashboard"),
        Route("/_fake/dashboard/", to_page),
        Route("/_fake/dashboard/state", state, name="dashboard_state"),
        Mount("/_fake/dashboard/static", StaticFiles(directory=STATIC), name="dashboard_static"),
        Route("/_fake/events", events, name="events"),
    ]
