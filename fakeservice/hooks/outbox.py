"""Sending queued hook deliveries: after the triggering write, outside the store lock.

Events queue :class:`~fakeservice.hooks.deliveries.Delivery` records inside the write
that caused them. The service's :class:`Outbox` sends them once that write is over:

* after each request (the request's ``after`` hook), and after the clock moved outside
  a request (a test's ``svc.clock.advance``, which may run jobs);
* in-process (``svc.request``, the ``requests``/``httpx`` transports) the POSTs are made
  right there, so they are done before the client gets its answer; served (an event
  loop runs the dispatch), a worker thread makes them, so a hook URL served by the
  same process does not block the loop (:meth:`Outbox.drain` waits for it);
* in the instance's ``manual`` background mode deliveries stay queued until released
  by ``POST /_fake/hooks/deliveries/fire`` (``timed`` sends them like ``instant``).

Pipeline events are settled here too: jobs that moved mark their pipeline, and a
pipeline whose status differs from the one last announced gets a Pipeline Hook.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx

from fakeservice.core.store import Store
from fakeservice.hooks import deliveries as dv
from fakeservice.hooks.models import record_result
from fakeservice.instance.models import instance

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

TIMEOUT_SECONDS = 10.0
BODY_LIMIT = 16 * 1024
_outboxes: weakref.WeakKeyDictionary[Store, weakref.ReferenceType[Outbox]] = (
    weakref.WeakKeyDictionary()
)
Settler = Callable[["Outbox"], None]


def outbox_of(store: Store) -> Outbox | None:
    """The outbox of the service that owns ``store`` (None for a bare store)."""
    found = _outboxes.get(store)
    return found() if found is not None else None


class Outbox:
    """One service's pending hook work and the means to send it."""

    def __init__(self, service: FakeService, settlers: tuple[Settler, ...] = ()) -> None:
        self.service = service
        self.store = service.store
        self.settlers = settlers
        self.touched_pipelines: set[int] = set()
        self._released: set[int] = set()
        self._release_all = False
        self._local = threading.local()
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._worker: threading.Thread | None = None
        _outboxes[self.store] = weakref.ref(self)

    # -- when to send ----------------------------------------------------------------
    def _depth(self) -> int:
        return int(getattr(self._local, "depth", 0))

    def before_request(self, _request: Any) -> None:
        self._local.depth = self._depth() + 1

    def after_request(self, _request: Any, _response: Any, _caller: Any) -> None:
        self._local.depth = max(0, self._depth() - 1)
        if self._local.depth == 0:
            self.flush_soon()

    def after_clock(self, _before: Any, _after: Any) -> None:
        if self._depth() == 0:
            self.flush_soon()

    def _has_work(self) -> bool:
        """Whether a flush would do anything: pipelines to settle, or queued deliveries
        that may go. Most requests queue nothing, and then neither the flush nor a wake
        of the worker thread (a thread switch per request when served) is paid."""
        if self.touched_pipelines:
            return True
        with self.store.lock:
            if not dv.deliveries(self.store).size("queued", dv.QUEUED):
                return False
            manual = instance(self.store).background_mode == "manual"
        return not manual or self._release_all or bool(self._released)

    def flush_soon(self) -> None:
        """Send now, or hand over to the worker when an event loop runs in this thread."""
        if not self._has_work():
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._start_worker()
        self._idle.clear()
        self._wake.set()

    def release(self, delivery_id: int | None = None) -> None:
        """Let queued deliveries go in ``manual`` mode (one, or all of them)."""
        if delivery_id is None:
            self._release_all = True
        else:
            self._released.add(delivery_id)

    # -- sending -------------------------------------------------------------------------
    def flush(self) -> None:
        """Settle pipeline events, then send every queued delivery that may go."""
        with self.store.lock:
            for settle in self.settlers:
                settle(self)
            manual = instance(self.store).background_mode == "manual"
            queued = [d.id for d in dv.deliveries(self.store).select("queued", [dv.QUEUED])]
            if manual and not self._release_all:
                queued = [i for i in queued if i in self._released]
            self._release_all = False
            self._released.difference_update(queued)
        for delivery_id in queued:
            self.send(delivery_id)

    def send(self, delivery_id: int) -> None:
        store, clock = self.store, self.service.clock
        with store.lock:
            record = dv.deliveries(store).get(delivery_id)
            if record is None or record.state != dv.QUEUED:
                return
            hook = dv.hook_of(store, record)
            if hook is None:
                return
            dv.fire(store, record, "send")
            url, headers, body = record.url, dict(record.request_headers), record.body
            verify, started = hook.enable_ssl_verification, clock.now()
        status, answer_headers, text, error = post(url, headers, body, verify)
        with store.lock:
            if dv.deliveries(store).get(delivery_id) is not record or record.state != "sending":
                return
            now = clock.now()
            ok = status is not None and 200 <= status < 300
            dv.fire(
                store,
                record,
                "succeed" if ok else "fail",
                response_status=str(status) if status is not None else "internal error",
                response_headers=answer_headers,
                response_body=text,
                error=error,
                execution_duration=(now - started).total_seconds(),
                delivered_at=now,
            )
            hook = dv.hook_of(store, record)
            if hook is not None:
                record_result(store, hook, ok, now)

    # -- served: the worker ----------------------------------------------------------
    def _start_worker(self) -> None:
        if self._worker is not None and self._worker.is_alive():
            return
        me = weakref.ref(self)
        wake, idle = self._wake, self._idle

        def run() -> None:
            while True:
                wake.wait()
                wake.clear()
                box = me()
                if box is None:
                    return
                try:
                    box.flush()
                except Exception as error:  # keep it for tests, like dispatch does
                    box.service.server_errors.append(error)
                finally:
                    if not wake.is_set():
                        idle.set()
                del box

        self._worker = threading.Thread(target=run, name="fakeservice-hooks", daemon=True)
        self._worker.start()

    def drain(self, timeout: float = 10.0) -> bool:
        """Wait until the worker has sent what was handed to it; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._idle.wait(0.01) and not self._wake.is_set():
                return True
        return False


_clients: dict[bool, httpx.Client] = {}
_clients_lock = threading.Lock()


def _client(verify: bool) -> httpx.Client:
    """One shared client per SSL setting (making a client builds an SSL context: slow)."""
    with _clients_lock:
        found = _clients.get(verify)
        if found is None:
            found = _clients[verify] = httpx.Client(verify=verify, timeout=TIMEOUT_SECONDS)
        return found


def post(
    url: str, headers: dict[str, str], body: str, verify: bool
) -> tuple[int | None, dict[str, str], str, str | None]:
    """POST one delivery: (status or None, answer headers, answer body, error)."""
    try:
        answer = _client(verify).post(url, content=body.encode(), headers=headers)
    except (httpx.HTTPError, ValueError) as failure:
        return None, {}, "", f"{type(failure).__name__}: {failure}"
    return answer.status_code, dict(answer.headers), answer.text[:BODY_LIMIT], None


def extend(service: Any, settlers: tuple[Settler, ...] = ()) -> None:
    """Give ``service`` its outbox (``service.hook_outbox``) and the moments it sends;
    ``settlers`` run before each flush (they may queue more deliveries)."""
    box = Outbox(service, settlers)
    service.hook_outbox = box

    def before(request: Any) -> None:
        box.before_request(request)

    service.add_hooks(before=before, after=box.after_request)
    service.clock.on_change(box.after_clock)
