"""Repeated reads answered again from the answer they last got, while nothing moved.

A client polling a pipeline, a dashboard refreshing a list, a load test: most requests
a served fake gets are the same ``GET`` again, on a state that did not change since.
Running the dispatch again would give the same bytes (its answer is a function of the
request, the state and the clock: see *Determinism* in DESIGN.md), so
:class:`AnswerCache` keeps the last answers (status, headers, body and the journal entry
they made) and serves them again while the **token** it saw when it kept them stands:

* the store's lock was not taken by anything else (:class:`~fakeservice.core.storelock.StoreLock`:
  every change to the state, from a request, the Python API or the hook sender's thread,
  takes it);
* no tracked map was written (:attr:`~fakeservice.core.tracking.TrackedMap.writes`), and
  the store was neither restored nor rolled back (``generation``);
* the clock shows the same time (a ``real`` clock moves by itself: nothing is kept then);
* no fault or rate-limit rule is set (they act per request).

An answer is kept only when the dispatch that made it changed nothing: it runs holding
the store's lock (:meth:`~fakeservice.core.storelock.StoreLock.hold`), and when it wrote
nothing and the clock did not move, the acquisitions it made are forgotten, so the
token after it is the token before it. An answer served again is recorded in the journal
once more (:meth:`~fakeservice.control.journal.Journal.repeat`, the same entry with the
next ``seq``), so the journal, its live stream and the dashboard see every request.

What is kept: ``GET`` requests under ``/api/v4/`` without a body, answered ``200`` with
no fault, at most :data:`MAX_BODY` bytes each and :data:`BUDGET` bytes in all (oldest
forgotten first). The key is everything the request carries: raw path, query, every
header as sent (tokens, ``Accept``, ``If-None-Match``, ``Host``...), scheme, mount point
and client address.

What it assumes: state changes go through the store (its maps and tables) under its
lock, as everything in the package does. Code that edits a record in place from outside,
without the lock, should call :meth:`AnswerCache.clear` (``svc.answers``), or set
``svc.answers.enabled = False``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.core.tracking import TrackedMap
from fakeservice.web.dispatch import dispatch
from fakeservice.web.http import Request, Response

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

API_PREFIX = "/api/v4/"
MAX_BODY = 256 * 1024
BUDGET = 8 * 1024 * 1024
VERIFY_ENV = "FAKESERVICE_VERIFY_ANSWERS"

Token = tuple[Any, ...]


@attrs.frozen
class Answer:
    """An answer as sent: status, headers (encoded with ``Date`` for ASGI, as the
    dispatch gave them in-process), body, and the journal entry it made."""

    status: int
    headers: list[Any]
    body: bytes
    entry: Any


class AnswerMismatch(AssertionError):
    """Verification found a kept answer that running the request again contradicts."""


class AnswerCache:
    """The last answers of one service's repeated reads (see the module docstring).

    ``enabled`` (true by default) governs the served app (:mod:`.raw`), ``in_process``
    (false by default: tests calling in-process are the ones that also reach into
    records) the in-process transports and ``svc.request``. With ``verify`` (the environment
    variable ``FAKESERVICE_VERIFY_ANSWERS=1``, or the path of a file to note the
    contradictions in) nothing is served again: every request
    runs, and a kept answer that the run contradicts is a server error (kept on
    ``service.server_errors``, which fails a test using the pytest fixture)."""

    __slots__ = (
        "_answers",
        "_lock",
        "_seen",
        "_size",
        "enabled",
        "in_process",
        "service",
        "verify",
    )

    def __init__(self, service: FakeService) -> None:
        self.service = service
        self.verify = os.environ.get(VERIFY_ENV, "") not in ("", "0")
        self.enabled = True
        self.in_process = self.verify
        self._lock = threading.Lock()  # for keeping and forgetting (finding needs none)
        self._answers: dict[Hashable, Answer] = {}
        self._seen: Token | None = None  # the token the kept answers were made under
        self._size = 0

    # -- served (ASGI) ---------------------------------------------------------------
    def find(self, scope: Any, root: str) -> tuple[Hashable | None, Answer | None]:
        """For an ASGI request: its key when its answer could be kept (else None), and
        the answer kept for it when that still holds (recorded in the journal as served
        once more), else None."""
        if (
            scope["method"] != "GET"
            or not self.enabled
            or not scope["path"].startswith(API_PREFIX, len(root))
        ):
            return None, None
        client, server = scope.get("client"), scope.get("server")
        key = (
            scope.get("raw_path") or scope["path"],
            scope.get("query_string", b""),
            tuple(scope.get("headers") or ()),
            root,
            scope.get("scheme", "http"),
            client[0] if client else "",
            tuple(server) if server else (),  # a list in some servers and test clients
        )
        # a request announcing a body gets a key but never finds an answer: none is kept
        # for one (the raw dispatch drops the key), and its key names every header sent
        return self._found(key)

    # -- in-process --------------------------------------------------------------------
    def handle(self, request: Request) -> Response:
        """Answer ``request`` in-process: again from a kept answer when one holds, else
        by the dispatch (keeping the answer when it may be)."""
        key, found = self._call_key(request)
        if found is not None:
            return Response(found.status, list(found.headers), found.body)
        if key is None:
            return dispatch(self.service, request)
        response, token = self.read(request)
        if token is not None:
            answer = Answer(
                response.status, list(response.headers), response.body, response.recorded
            )
            self.keep(key, token, answer)
        return response

    def _call_key(self, request: Request) -> tuple[Hashable | None, Answer | None]:
        if (
            request.method != "GET"
            or not (self.enabled and self.in_process)
            or request.body
            or not request.raw_path.startswith(API_PREFIX)
        ):
            return None, None
        key = (
            "call",
            request.raw_path,
            request.query_string,
            tuple(request.headers.items()),
            request.root_path,
            request.scheme,
            request.host,
            request.client,
        )
        return self._found(key)

    # -- both ------------------------------------------------------------------------
    def _found(self, key: Hashable) -> tuple[Hashable | None, Answer | None]:
        try:
            found = self._answers.get(key)
        except TypeError:  # a part that cannot be a key
            return None, None
        if found is None or self.verify:
            return key, None
        if self.token() != self._seen:
            self.clear()
            return key, None
        self.service.journal.repeat(found.entry)
        return key, found

    def token(self) -> Token | None:
        """What the state looks like now, or None when answers may not be kept."""
        service = self.service
        clock = service.clock
        faults = getattr(service, "faults", None)  # None without the control plane
        if clock.mode == "real" or faults is None or faults.rules or service.rate_limits.rules:
            return None
        store = service.store
        return (
            store.lock.taken,
            TrackedMap.writes,
            store.generation,
            id(store),
            clock.now(),
            service.base_url,
        )

    def read(self, request: Request) -> tuple[Response, Token | None]:
        """Answer a read whose answer may be kept, holding the store's lock: with the
        token to keep it under when it changed nothing, else None."""
        service = self.service
        lock = service.store.lock
        taken = lock.hold()
        try:
            before = self.token()
            response = dispatch(service, request)
            after = self.token()
            if before is None or after is None or after[1:] != before[1:]:
                return response, None
            lock.forget(taken)  # its own acquisitions: it wrote nothing
            if response.drop or response.delay:
                return response, None
            return response, before
        finally:
            lock.release()

    def keep(self, key: Hashable, token: Token, answer: Answer) -> None:
        """Keep ``answer`` for ``key``, made under ``token`` (which it left unchanged),
        when it may be kept: a ``200`` with its journal entry, not too big."""
        with self._lock:
            if token != self._seen:
                self._forget_all()
                self._seen = token
            old = self._answers.pop(key, None)
            if old is not None:
                self._size -= len(old.body)
                if self.verify:
                    self._check(key, old, answer)
            if answer.status != 200 or answer.entry is None or len(answer.body) > MAX_BODY:
                return
            while self._answers and self._size + len(answer.body) > BUDGET:
                oldest = next(iter(self._answers))
                self._size -= len(self._answers.pop(oldest).body)
            self._answers[key] = answer
            self._size += len(answer.body)

    def _check(self, key: Hashable, kept: Answer, fresh: Answer) -> None:
        if (kept.status, kept.headers, kept.body) == (fresh.status, fresh.headers, fresh.body):
            return
        error = AnswerMismatch(
            f"a kept answer no longer holds for {key!r}: "
            f"kept {kept.status} {kept.body[:300]!r}, now {fresh.status} {fresh.body[:300]!r}"
        )
        self.service.server_errors.append(error)
        log = os.environ.get(VERIFY_ENV, "")
        if log not in ("", "0", "1"):  # a file to note them in, too
            with open(log, "a", encoding="utf-8") as out:
                out.write(f"{error}\n")

    def clear(self) -> None:
        """Forget every kept answer."""
        with self._lock:
            self._forget_all()

    def _forget_all(self) -> None:
        self._answers = {}
        self._seen = None
        self._size = 0

    def __len__(self) -> int:
        return len(self._answers)
