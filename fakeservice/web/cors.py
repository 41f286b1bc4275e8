"""CORS for browser clients, off unless origins are given.

Origins come from ``FakeService(cors_origins=[...])``, ``fakeservice serve --cors-origin``
(repeatable) and the scenario key ``cors_origins``; ``*`` allows any origin. When some
are set, Starlette's :class:`~starlette.middleware.cors.CORSMiddleware` answers preflights
and adds the CORS headers; the exposed headers are the pagination headers, ``Link``, the
rate-limit headers and the conditional-request ones, so a browser client reads them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from fakeservice.control.ratelimit import limit_headers
from fakeservice.scenarios.schema import STR, ListOf

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

EXPOSED_HEADERS: tuple[str, ...] = (
    "X-Total",
    "X-Total-Pages",
    "X-Per-Page",
    "X-Page",
    "X-Next-Page",
    "X-Prev-Page",
    "Link",
    "ETag",
    "Location",
    *limit_headers("", 0, 0, 0.0, 0.0),  # RateLimit-* and Retry-After
)
ALLOWED_METHODS: tuple[str, ...] = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
PREFLIGHT_MAX_AGE = 600


class CorsSettings:
    """The origins a service allows (empty: CORS off)."""

    def __init__(self, origins: Iterable[str] = ()) -> None:
        self.base: tuple[str, ...] = normalized(origins)
        self.origins: tuple[str, ...] = self.base

    def allow(self, origins: Iterable[str]) -> None:
        """Allow ``origins`` too (those already allowed stay)."""
        self.origins = normalized((*self.origins, *origins))


def normalized(origins: Iterable[str]) -> tuple[str, ...]:
    """Origins without a trailing slash, each once, in the order given."""
    return tuple(dict.fromkeys(origin.rstrip("/") or origin for origin in origins))


class ServiceCors:
    """ASGI middleware: the service's current CORS settings through ``CORSMiddleware``
    (rebuilt when the origins change, e.g. by a scenario), or straight through when off."""

    def __init__(self, app: ASGIApp, settings: CorsSettings) -> None:
        self.app = app
        self.settings = settings
        self._origins: tuple[str, ...] = ()
        self._cors: ASGIApp = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        origins = self.settings.origins
        if not origins or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if origins != self._origins:
            self._cors = CORSMiddleware(
                self.app,
                allow_origins=origins,
                allow_methods=ALLOWED_METHODS,
                allow_headers=["*"],
                allow_credentials=True,
                expose_headers=EXPOSED_HEADERS,
                max_age=PREFLIGHT_MAX_AGE,
            )
            self._origins = origins
        await self._cors(scope, receive, send)


def _load(service: FakeService, data: Mapping[str, Any]) -> None:
    origins = data.get("cors_origins") or []
    if not isinstance(origins, list) or not all(isinstance(o, str) and o for o in origins):
        from fakeservice.scenarios.problems import ScenarioError

        raise ScenarioError([("cors_origins", "expected a list of non-empty origins")])
    service.cors.allow(origins)


def register(found: Sections) -> None:
    """Declare this module's scenario keys."""
    found.register_section(
        "cors_origins",
        _load,
        schema=ListOf(STR),
        doc="origins browser clients may call the fake from (`*`: any); CORS is off without it",
    )
