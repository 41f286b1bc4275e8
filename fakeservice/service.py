"""``FakeService``: one fake instance (store, clock, router) and its Python control API.

It is the composition root: it is built from the areas' registrations (a
:class:`~fakeservice.composition.Composition`, see :mod:`fakeservice.areas`) and hands
itself to the layers below (dispatch, control plane, scenario loader, transports), which
receive it rather than import it.

Create one per test (``FakeService()`` loads the built-in default scenario), drive it
in-process (``svc.request(...)``, ``svc.requests_session()``, ``svc.httpx_client()``) or
serve it on a loopback port (``with svc.serve() as url``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import attrs

from fakeservice.areas import Area, compose
from fakeservice.core import collector
from fakeservice.core.catchup import CatchUp
from fakeservice.core.clock import Clock
from fakeservice.core.packing import packed, unpacked
from fakeservice.core.store import Store
from fakeservice.dashboard.events import EventHub
from fakeservice.web.answers import AnswerCache
from fakeservice.web.app import build_app
from fakeservice.web.auth import Caller
from fakeservice.web.cors import CorsSettings
from fakeservice.web.http import Request, Response
from fakeservice.web.vendor_headers import set_header_prefix

if TYPE_CHECKING:
    from fakeservice.control.faults import Faults
    from fakeservice.control.journal import Journal
    from fakeservice.control.ratelimit import RateLimits
    from fakeservice.control.runner import Runner
    from fakeservice.control.service import ControlPlane

DEFAULT_BASE_URL = "http://fakeservice.test"
BeforeHook = Callable[[Request], Response | None]
AfterHook = Callable[[Request, Response, Caller], None]


@attrs.frozen
class ServiceTemplate:
    """A loaded scenario ready to stamp out services quickly (see :meth:`FakeService.template`)."""

    snapshot: bytes
    control: dict[str, Any]
    base_url: str
    areas: tuple[Area, ...] | None = None


class FakeService:
    """An in-memory fake of the service.

    ``scenario`` is a path to a YAML file, a parsed mapping, ``"default"`` (the built-in
    default scenario) or ``None`` (an empty instance with no users at all). ``areas``
    lists the area modules the service is made of (default: every area,
    :data:`fakeservice.areas.AREAS`); a scenario may only use their keys.
    ``cors_origins`` turns CORS on for those origins (``"*"``: any), see
    :mod:`fakeservice.web.cors`. ``app`` is the Starlette application serving it.
    ``header_prefix`` replaces the spec's ``X-Service-`` vendor header prefix (for
    example ``"X-Gitlab-"``); it wins over the scenario's ``header_prefix``.
    """

    # Attached at construction by the areas' extensions (``setup.extension``).
    control: ControlPlane
    journal: Journal
    faults: Faults
    rate_limits: RateLimits
    runner: Runner

    def __init__(
        self,
        scenario: str | Path | Mapping[str, Any] | None = "default",
        *,
        clock: Clock | None = None,
        base_url: str = DEFAULT_BASE_URL,
        areas: Sequence[Area] | None = None,
        cors_origins: Iterable[str] = (),
        journal_capacity: int | None = None,
        header_prefix: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.cors = CorsSettings(cors_origins)
        self.clock = clock or Clock("manual")
        self.composition = compose(areas)
        self.store = Store()
        self.composition.install(self.store)
        self.router = self.composition.router
        self.sections = self.composition.sections
        self.server_errors: list[BaseException] = []
        self._before: list[BeforeHook] = []
        self._after: list[AfterHook] = []
        self._catch_up: CatchUp | None = None
        self.events = EventHub(self)
        self.answers = AnswerCache(self)
        self.app = build_app(self)
        self.composition.extend(self)
        self.scenario_source = scenario
        if scenario is not None:
            self.load_scenario(scenario)
        if journal_capacity is not None:
            self.journal.resize(journal_capacity)
        if header_prefix is not None:
            set_header_prefix(self.store, header_prefix)
        self.mark_initial()

    @classmethod
    def from_scenario(cls, path: str | Path, **kw: Any) -> FakeService:
        return cls(path, **kw)

    @classmethod
    def from_template(cls, template: ServiceTemplate, **kw: Any) -> FakeService:
        """A new service in the template's state (much faster than loading the scenario)."""
        kw.setdefault("base_url", template.base_url)
        kw.setdefault("areas", template.areas)
        service = cls(None, **kw)
        service.restore(template.snapshot)
        service.control.load_config(template.control)
        if kw.get("journal_capacity") is not None:
            service.journal.resize(kw["journal_capacity"])
        service._initial = template.snapshot
        if kw.get("header_prefix") is not None:
            set_header_prefix(service.store, kw["header_prefix"])
            service._initial = packed(service.snapshot())
        service.control.mark_initial()
        service._track()
        return service

    def template(self) -> ServiceTemplate:
        """The state :meth:`reset` returns to, as a :class:`ServiceTemplate`."""
        return ServiceTemplate(
            self._initial, self.control.initial, self.base_url, self.composition.areas
        )

    @property
    def url(self) -> str:
        """The base URL in-process clients use (``base_url``)."""
        return self.base_url

    # -- scenarios, snapshots ------------------------------------------------------------
    def load_scenario(self, scenario: Any, *, replace: bool = False) -> None:
        """Load a scenario (path, built-in name, mapping or parsed document).

        By default its records are added to the current state. With ``replace=True`` the
        whole state (store, clock, faults, rate limits) becomes the scenario's alone, and
        :meth:`reset` returns to it. A scenario that fails leaves the service untouched.
        """
        from fakeservice.scenarios.loader import load_into

        if not replace:
            load_into(self, scenario)
            return
        fresh = type(self)(
            None, base_url=self.base_url, areas=self.composition.areas, cors_origins=self.cors.base
        )
        load_into(fresh, scenario)
        self.cors.origins = fresh.cors.origins
        self.restore(fresh.snapshot())
        self.control.load_config(fresh.control.config())
        self.mark_initial()
        self.journal.clear()

    def snapshot(self) -> bytes:
        """The whole state (store and clock) as bytes.

        The journal, faults, rate limits and named snapshots are not part of it.
        """
        import pickle

        with self.store.lock:
            return pickle.dumps((self.store.snapshot(), self.clock.state()))

    def restore(self, snapshot: bytes | str) -> None:
        """Restore a snapshot: the bytes of :meth:`snapshot`, or the id of a named one
        (:meth:`save_snapshot`)."""
        import pickle

        if isinstance(snapshot, str):
            snapshot = self.control.snapshots.get(snapshot)
        store_state, clock_state = pickle.loads(unpacked(snapshot))
        with self.store.lock:
            self.store.restore(store_state)
            self.clock.load_state(clock_state)

    def save_snapshot(self, name: str | None = None) -> str:
        """Keep the current state in memory under ``name`` (or a new id); returns the id."""
        return self.control.snapshots.save(self.snapshot(), name)

    def reset(self) -> None:
        """Back to the state right after the scenario was loaded.

        Also empties the journal and puts faults and rate limits back to what the
        scenario declared (their counters start afresh).
        """
        if not self._undo():
            self.restore(self._initial)
        self._track()
        self.control.reset()

    def _track(self) -> None:
        """Note changes from here on, against the initial state as it is now."""
        self.store.track(against=self._initial)

    def _undo(self) -> bool:
        """Undo what was touched since the initial state; False when only a full restore
        can (see :meth:`Store.rollback`). Costs what was touched, not the state's size."""
        from fakeservice.core.pristine import pristine_state

        store_state, clock_state = pristine_state(self._initial)
        with self.store.lock:
            if not self.store.rollback(store_state, against=self._initial):
                return False
            self.clock.load_state(clock_state)
        return True

    def mark_initial(self) -> None:
        """Make the current state the one :meth:`reset` returns to (kept compressed; the
        garbage collector held while it is pickled, see :mod:`fakeservice.core.collector`)."""
        with collector.paused():
            self._initial = packed(self.snapshot())
        self.control.mark_initial()
        self._track()

    # -- clock ---------------------------------------------------------------------------
    def now(self) -> dt.datetime:
        """The service's current time."""
        return self.clock.now()

    def advance_clock(self, seconds: float = 0.0, **delta: float) -> dt.datetime:
        """Move a manual clock forward (``seconds`` plus ``minutes=``, ``hours=``...)."""
        return self.clock.advance(seconds, **delta)

    def set_clock(self, when: dt.datetime | str) -> dt.datetime:
        """Set a manual clock to ``when`` (a datetime or ISO 8601 text), never backwards."""
        from fakeservice.control.clocks import as_datetime

        return self.clock.set(as_datetime(when))

    def set_clock_mode(self, mode: str) -> None:
        """Switch the clock to ``manual``, ``frozen`` or ``real``, from the current time."""
        from fakeservice.control.clocks import reconfigure

        with self.store.lock:
            reconfigure(self.clock, mode)

    # -- CI ------------------------------------------------------------------------------
    def finish_job(self, job_id: int, status: str = "success") -> Any:
        """Finish a CI job through the CI area's runner (``service.runner``)."""
        from fakeservice.control.runner import runner_of

        runner = runner_of(self)
        with self.store.lock:
            return runner.finish(job_id, status)

    # -- credentials ---------------------------------------------------------------------
    def admin_tokens(self) -> list[tuple[str, str]]:
        """``(username, token)`` for each active administrator's usable API token."""
        from fakeservice.tokens.models import tokens
        from fakeservice.users.models import users

        now = self.clock.now()
        found: list[tuple[str, str]] = []
        with self.store.lock:
            admins = users(self.store).select("admins", [True])
            for user in admins:
                if user.state != "active":
                    continue
                for token in tokens(self.store).select("user", [user.id]):
                    if (
                        token.kind in ("personal", "impersonation")
                        and token.active(now)
                        and "api" in token.scopes
                    ):
                        found.append((user.username, token.token))
        return found

    def admin_token(self) -> str | None:
        """The first administrator API token (``root-token`` in the default scenario)."""
        found = self.admin_tokens()
        return found[0][1] if found else None

    # -- persistence ---------------------------------------------------------------------
    def save_state(self, path: str | Path) -> None:
        """Write the state to ``path`` atomically (temp file, fsync, rename)."""
        from fakeservice.control.statefile import save_state

        save_state(self, path)

    def load_state(self, path: str | Path) -> None:
        """Restore the state saved in ``path`` by :meth:`save_state`."""
        from fakeservice.control.statefile import load_state

        load_state(self, path)

    def persist_to(self, path: str | Path) -> None:
        """Save the state to ``path`` after every state-changing request (not GET/HEAD)."""
        from fakeservice.control.statefile import Persister

        self.add_hooks(after=Persister(self, path))

    # -- hooks ---------------------------------------------------------------------------
    def add_hooks(
        self,
        before: BeforeHook | None = None,
        after: AfterHook | None = None,
        catch_up: Callable[[], Any] | None = None,
    ) -> None:
        """Run ``before`` and ``after`` around each request; ``catch_up`` (settling what
        became due) before each request too, with the others, in one hook placed where
        the first was added, skipped while they have nothing new to look at
        (:class:`~fakeservice.core.catchup.CatchUp`)."""
        if catch_up is not None:
            if self._catch_up is None:
                self._catch_up = CatchUp(self)
                self._before.append(self._catch_up)
            self._catch_up.works.append(catch_up)
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
        return self.answers.handle(request)

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
        prefixed unless the path is under ``/api/``, ``/_fake`` or ``/oauth/``, or is a git URL."""
        if (
            not path.startswith(("/api/", "/_fake", "/oauth/"))
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
        scheme, _, host = self.base_url.partition("://")
        request = Request.build(
            method,
            raw_path,
            query_string=qs,
            headers=hdrs,
            json_body=json_body,
            form=data,
            body=body or b"",
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
