"""Background work of long-running operations (storage moves, exports, imports) on the
service clock.

An area registers a :class:`Worker` for a table whose records carry a ``due_at`` and a
sorted ``due`` index (:func:`due_index`): ``next_event(record)`` names the event the
background job fires next (None when nothing is left to do) and ``fire(store, record,
event, when)`` fires it through the area's machine. How the work runs is the instance's
``background_mode``:

* ``instant``: every step runs within the request that started the work;
* ``timed``: each step runs ``step_seconds`` after the previous one, when the clock
  reaches it (advancing a manual clock, or before each request under a real clock), at
  its due time, so timestamps do not depend on how far the clock jumped;
* ``manual``: nothing runs by itself; the control plane fires events one at a time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.store import Store, Table
from fakeservice.instance.models import instance

DUE = "due"
MAX_INSTANT_STEPS = 20


@attrs.frozen
class Worker:
    table: str
    next_event: Callable[[Any], str | None]
    fire: Callable[[Store, Any, str, dt.datetime], None]


_workers: dict[str, Worker] = {}


def register_worker(worker: Worker) -> Worker:
    """Let the background run ``worker``'s records (keeps the first registration)."""
    _workers.setdefault(worker.table, worker)
    return worker


def due_index(table: Table[Any]) -> None:
    """Declare the ``due`` index a worker's table needs (records with a ``due_at``)."""
    table.add_sorted(DUE, lambda r: DUE if r.due_at is not None else None, lambda r: (r.due_at,))


def schedule(store: Store, table_name: str, record: Any, now: dt.datetime) -> None:
    """Plan ``record``'s next step after a change, as the background mode says."""
    worker = _workers[table_name]
    table = store.tables[table_name]
    settings = instance(store)
    if settings.background_mode == "instant":
        for _ in range(MAX_INSTANT_STEPS):
            event = worker.next_event(record)
            if event is None:
                break
            worker.fire(store, record, event, now)
        due = None
    elif settings.background_mode == "timed" and worker.next_event(record) is not None:
        due = now + dt.timedelta(seconds=settings.step_seconds)
    else:
        due = None
    if due != record.due_at:
        table.update(record, due_at=due)


def replan(store: Store, table_name: str, record: Any, now: dt.datetime) -> None:
    """Plan ``record``'s next step after a hand-made change (a scenario, the control
    plane): in ``timed`` mode it carries on with the clock; otherwise it stays put."""
    if instance(store).background_mode == "timed":
        schedule(store, table_name, record, now)
    elif record.due_at is not None:
        store.tables[table_name].update(record, due_at=None)


def _earliest(store: Store, now: dt.datetime) -> tuple[Worker, Any] | None:
    best: tuple[tuple[Any, ...], Worker, Any] | None = None
    for name, worker in _workers.items():
        table = store.tables.get(name)
        if table is None:
            continue
        part = table.sorted[DUE].part(DUE)
        if not part:
            continue
        entry = part[0]
        key = (entry[0], name, entry[-1])
        if entry[0] <= now and (best is None or key < best[0]):
            best = (key, worker, table.rows[entry[-1]])
    return None if best is None else (best[1], best[2])


def settle(store: Store, now: dt.datetime) -> None:
    """Run every step due by ``now``, earliest first, each at its own due time."""
    with store.lock:
        while True:
            found = _earliest(store, now)
            if found is None:
                return
            worker, record = found
            when = record.due_at
            store.tables[worker.table].update(record, due_at=None)
            event = worker.next_event(record)
            if event is not None:
                worker.fire(store, record, event, when)
                schedule(store, worker.table, record, when)


def reschedule_all(store: Store, now: dt.datetime) -> None:
    """Plan every unfinished record again (after the mode or step changed)."""
    with store.lock:
        for name in _workers:
            table = store.tables.get(name)
            if table is None:
                continue
            for record in list(table):
                if _workers[name].next_event(record) is not None:
                    schedule(store, name, record, now)


def extend(service: Any) -> None:
    """Run due steps whenever the clock moves and before each request."""

    def on_clock(_before: dt.datetime, after: dt.datetime) -> None:
        settle(service.store, after)

    def catch_up() -> None:
        settle(service.store, service.clock.now())

    service.clock.on_change(on_clock)
    service.add_hooks(catch_up=catch_up)
