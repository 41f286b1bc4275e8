"""``FakeService``: one fake instance (store, clock, router) and its Python control API.

Create one per test (``FakeService()`` loads the built-in default scenario), drive it
in-process (``svc.request(...)``, ``svc.requests_session()``, ``svc.httpx_client()``) or
serve it on a loopback port (``with svc.serve() as url``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fakeservice.areas import extend_service, install_tables, load_routes
from fakeservice.core.clock import Clock
from fakeservice.core.store import Store
from fakeservice.web.asgi import AsgiApp
from fakeservice.web.auth import Caller
from fakeservice.web.dispatch import dispatch
from fakeservice.web.http import Request, Response
from fakeservice.web.routing import Router, api

DEFAULT_BASE_URL = "http://fakeservice.test"
BeforeHook = Callable[[Request], Response | None]
AfterHook = Callable[[Request, Response, Caller], None]

_router: Router | None = None


def shared_router() -> Router:
    """The router over every declared endpoint (built once per process)."""
    global _router
    if _router is None:
        load_routes()
        _router = Router(api.endpoints)
    return _router


class FakeService:
    """An in-memory fake of the service.

    ``scenario`` is a path to a YAML file, a parsed mapping, ``"default"`` (the built-in
    default scenario) or ``None`` (an empty instance with no users at all).
    """

    def __init__(
        self,
        scenario: str | Path | Mapping[str, Any] | None = "default",
        *,
        clock: Clock | None = None,
        base_url: str = DEFAULT_BASE_URL,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.clock = clock or Clock("manual")
        self.store = Store()
        install_tables(self.store)
        self.router = shared_router()
        self.server_errors: list[BaseException] = []
        self._before: list[BeforeHook] = []
        self._after: list[AfterHook] = []
        self.app = AsgiApp(self)
        extend_service(self)
        self.scenario_source = scenario
        if scenario is not None:
            self.load_scenario(scenario)
        self._initial = self.snapshot()

    @classmethod
    def from_scenario(cls, path: str | Path, **kw: Any) -> FakeService:
        return cls(path, **kw)

    # -- scenarios, snapshots ------------------------------------------------------------
    def load_scenario(self, scenario: str | Path | Mapping[str, Any]) -> None:
        from fakeservice.scenarios.loader import load_into

        load_into(self, scenario)

    def snapshot(self) -> bytes:
        """The whole state (store and clock) as bytes."""
        import pickle

        with self.store.lock:
            return pickle.dumps((self.store.snapshot(), self.clock.state()))

    def restore(self, snapshot: bytes) -> None:
        import pickle

        store_state, clock_state = pickle.loads(snapshot)
        with self.store.lock:
            self.store.restore(store_state)
            self.clock.load_state(clock_state)

    def reset(self) -> None:
        """Back to the state right after the scenario was loaded."""
        self.restore(self._initial)

    def mark_initial(self) -> None:
        """Make the current state the one :meth:`reset` returns to."""
        self._initial = self.snapshot()

    # -- hooks ---------------------------------------------------------------------------
    def add_hooks(self, before: BeforeHook | None = None, after: AfterHook | None = None) -> None:
        if before is not None:
            self._before.append(before)
        if after is not None:
            self._after.append(after)

    def before_request(self, request: Request) -> Response | None:
        for hook in self._before:
            response = hook(request)
            if response is not None:
                return response
        return None

    def after_request(self, request: Request, response: Response, caller: Caller) -> None:
        for hook in self._after:
            hook(request, response, caller)

    # -- in-process requests -------------------------------------------------------------
    def handle(self, request: Request) -> Response:
        return dispatch(self, request)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | list[tuple[str, Any]] | None = None,
        json_body: Any = None,
        data: Mapping[str, Any] | None = None,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
    ) -> Response:
        """Send one request in-process. ``path`` is raw (keep ``%2F``); ``/api/v4`` is
        prefixed when the path does not start with it or with ``/_fake``."""
        if (
            not path.startswith(("/api/", "/_fake"))
            and not path.endswith(".git")
            and ".git/" not in path
        ):
            path = "/api/v4" + path
        raw_path, _, qs = path.partition("?")
        if query:
            extra = urlencode(query, doseq=True)
            qs = f"{qs}&{extra}" if qs else extra
        hdrs = {k.lower(): v for k, v in (headers or {}).items()}
        if token:
            hdrs["private-token"] = token
        payload = b""
        if json_body is not None:
            payload = json.dumps(json_body).encode()
            hdrs.setdefault("content-type", "application/json")
        elif data is not None:
            payload = urlencode(data, doseq=True).encode()
            hdrs.setdefault("content-type", "application/x-www-form-urlencoded")
        elif body is not None:
            payload = body
        scheme, _, host = self.base_url.partition("://")
        request = Request(
            method=method.upper(),
            raw_path=raw_path,
            query_string=qs,
            headers=hdrs,
            body=payload,
            scheme=scheme,
            host=host,
        )
        return self.handle(request)

    # -- transports and servers (see fakeservice.testing) --------------------------------
    def requests_session(self) -> Any:
        from fakeservice.testing.transports import requests_session

        return requests_session(self)

    def httpx_client(self, **kw: Any) -> Any:
        from fakeservice.testing.transports import httpx_client

        return httpx_client(self, **kw)

    @contextmanager
    def serve(self, host: str = "127.0.0.1", port: int = 0, timeout: float = 10.0) -> Iterator[str]:
        """Serve on a loopback port in a background thread; yields the base URL."""
        from fakeservice.testing.server import LiveServer

        with LiveServer(self, host=host, port=port, timeout=timeout) as server:
            yield server.url
