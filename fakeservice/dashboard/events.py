"""Live events of one service, fanned out to server-sent event streams.

A stream subscribes with :meth:`EventHub.subscribe` and reads its queue on its event
loop. While at least one stream listens, the hub listens to the service's journal
(``journal`` events: each answered API request) and to every state machine's transitions
on the service's records (``transition`` events); with none, it costs nothing. Publishing
is thread-safe: requests answered in-process or a clock advanced from a test thread reach
the streams too.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.core.machine import Machine

if TYPE_CHECKING:
    from fakeservice.control.journal import JournalEntry
    from fakeservice.host import Host as FakeService

Event = tuple[str, dict[str, Any]] | None  # None ends the stream
QUEUE_LIMIT = 1000


@attrs.define(eq=False)
class Subscriber:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Event]

    def put(self, event: Event) -> None:
        """Queue ``event`` (from any thread); a subscriber too slow to keep up loses it, and
        one whose event loop has closed (its server is gone) gets nothing."""
        if self.loop.is_closed():
            return
        try:
            self.loop.call_soon_threadsafe(self._put, event)
        except RuntimeError:  # closed meanwhile
            return

    def _put(self, event: Event) -> None:
        if event is None or self.queue.qsize() < QUEUE_LIMIT:
            self.queue.put_nowait(event)


class EventHub:
    """Fans the service's live events out to its subscribers."""

    def __init__(self, service: FakeService) -> None:
        self.service = service
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []

    def subscribe(self) -> Subscriber:
        """A new subscriber on the running event loop."""
        subscriber = Subscriber(asyncio.get_running_loop(), asyncio.Queue())
        with self._lock:
            if not self._subscribers:
                self.service.journal.add_listener(self._on_entry)
                Machine.add_listener(self._on_transition)
            self._subscribers.append(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)
            if not self._subscribers:
                self.service.journal.remove_listener(self._on_entry)
                Machine.remove_listener(self._on_transition)

    @property
    def listening(self) -> int:
        return len(self._subscribers)

    def publish(self, kind: str, data: dict[str, Any]) -> None:
        with self._lock:
            subscribers = tuple(self._subscribers)
        for subscriber in subscribers:
            subscriber.put((kind, data))

    def close(self) -> None:
        """End every stream (the server is shutting down)."""
        with self._lock:
            subscribers = tuple(self._subscribers)
        for subscriber in subscribers:
            subscriber.put(None)

    # -- sources -------------------------------------------------------------------------
    def _on_entry(self, entry: JournalEntry) -> None:
        self.publish("journal", entry.to_json())

    def _on_transition(self, machine: Machine, record: Any, old: str, new: str, event: str) -> None:
        record_id = getattr(record, "id", None)
        if not self._owns(record, record_id):
            return  # another service's record
        self.publish(
            "transition",
            {"machine": machine.name, "id": record_id, "from": old, "to": new, "event": event},
        )

    def _owns(self, record: Any, record_id: Any) -> bool:
        """Whether ``record`` is stored in this service (or not stored yet, when unknown)."""
        if record_id is None:
            return False
        return any(
            table.rows.get(record_id) is record for table in self.service.store.tables.values()
        )
