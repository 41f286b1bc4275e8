"""Catch-up work run before each request, skipped while it has nothing new to look at.

Areas settle what became due before each request (background steps, timed jobs,
schedules, merges waiting for pipelines). Each of them reads only the store and the
clock, and a run that finds nothing to do writes nothing. So :class:`CatchUp` runs
them in order, and when a run wrote nothing it notes the state it saw (the store, its
generation, the process-wide count of writes to tracked maps, the clock's time): the
next reads (``GET``, ``HEAD``) skip the work while that state is unchanged, since
running it again would find nothing again; any other request runs it as before. A run
of reads costs no settling.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, Protocol

from fakeservice.core.store import Store
from fakeservice.core.tracking import TrackedMap


class _Clock(Protocol):
    def now(self) -> dt.datetime: ...


class _Service(Protocol):
    store: Store
    clock: _Clock


class _Request(Protocol):
    method: str


READS = frozenset({"GET", "HEAD"})


class CatchUp:
    """A before-request hook running the catch-up ``works`` in their order, or nothing
    when the last run found nothing to do (it wrote nothing) and neither the store nor
    the clock moved since: exactly what running them would have done."""

    __slots__ = ("quiet", "service", "works")

    def __init__(self, service: _Service) -> None:
        self.service = service
        self.works: list[Callable[[], Any]] = []
        self.quiet: tuple[Any, ...] | None = None  # the state the last idle run saw

    def state(self) -> tuple[Any, ...]:
        store = self.service.store
        return (id(store), store.generation, TrackedMap.writes, self.service.clock.now())

    def __call__(self, request: _Request) -> None:
        seen = self.state()
        if seen == self.quiet and request.method in READS:
            return None
        for work in self.works:
            work()
        self.quiet = seen if self.state() == seen else None
        return None
