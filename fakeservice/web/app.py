"""The Starlette application of a :class:`~fakeservice.service.FakeService` (``svc.app``).

Routes, in order:

* ``/api/v4``: a :class:`~starlette.routing.Mount` whose app is the raw dispatch
  (:class:`~fakeservice.web.raw.RawDispatch`), routed on the raw path so ``%2F`` survives,
  with no thread portal;
* ``/_fake/dashboard`` and ``/_fake/events``: the live dashboard (static files, its state
  and a server-sent event stream), then the rest of the control plane under ``/_fake``;
* ``/oauth``: the token endpoint;
* git smart HTTP (``…/info/refs``, ``…/git-upload-pack``, ``…/git-receive-pack``);
* everything else goes to the dispatch too, which answers the service's own 404/405.

The ``/api/v4`` Mount comes first and API requests may even skip the router (see
:class:`FakeApp`): this keeps the fake's throughput at the raw dispatch's.

Lifespan, exception handling and middleware (CORS, see :mod:`.cors`) are Starlette's.
The app can be mounted inside another Starlette or FastAPI application: the path it is
mounted under is taken off the raw path before dispatch.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import Receive, Scope, Send

from fakeservice.web.cors import ServiceCors
from fakeservice.web.raw import ROOT_KEY, RawDispatch, send_kept

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

API_PREFIX = "/api/v4/"
GIT_ENDPOINTS: tuple[str, ...] = ("info/refs", "git-upload-pack", "git-receive-pack")


class FakeApp(Starlette):
    """A Starlette application serving one service; ``app.service`` is that service.

    The hot path: an API request (under ``/api/v4/``) goes straight to the ``/api/v4``
    Mount's app, the raw dispatch, when nothing could act on it on the way (CORS off and
    no middleware added to the app), exactly as the router would send it there.
    """

    service: FakeService
    api: RawDispatch

    def __init__(self, service: FakeService, api: RawDispatch, **kw: Any) -> None:
        super().__init__(**kw)
        self.service = service
        self.api = api
        self._own_middleware = len(self.user_middleware)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # where the fake itself is mounted (empty when it is the top-level app)
        root = scope[ROOT_KEY] = scope.get("root_path", "")
        if (
            scope["type"] == "http"
            and scope["path"].startswith(API_PREFIX, len(root))
            and not self.service.cors.origins
            and len(self.user_middleware) == self._own_middleware
        ):
            scope["app"] = self
            key, found = self.service.answers.find(scope, root)
            if found is not None:
                await send_kept(found, send)
            else:
                await self.api.run(scope, receive, send, key)
            return
        await super().__call__(scope, receive, send)


def routes(service: FakeService, raw: RawDispatch) -> list[BaseRoute]:
    from fakeservice.dashboard.routes import dashboard_routes

    return [
        Mount("/api/v4", app=raw, name="api"),
        *dashboard_routes(service),
        Mount("/_fake", app=raw, name="control"),
        Mount("/oauth", app=raw, name="oauth"),
        *(Route("/{repository:path}/" + end, raw, name=end) for end in GIT_ENDPOINTS),
        Mount("", app=raw, name="fallback"),
    ]


def build_app(service: FakeService) -> FakeApp:
    """The Starlette application serving ``service``."""
    raw = RawDispatch(service)
    return FakeApp(
        service,
        raw,
        routes=routes(service, raw),
        middleware=[Middleware(ServiceCors, settings=service.cors)],
        exception_handlers={HTTPException: http_error},
    )


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (a missing static file of the dashboard) in the service's
    shape: ``{"error": "404 Not Found"}``."""
    assert isinstance(exc, HTTPException)
    if exc.status_code in (204, 304):
        return Response(status_code=exc.status_code, headers=exc.headers)
    phrase = HTTPStatus(exc.status_code).phrase
    return JSONResponse(
        {"error": f"{exc.status_code} {phrase}"}, status_code=exc.status_code, headers=exc.headers
    )
