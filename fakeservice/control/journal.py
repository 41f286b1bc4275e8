"""The request journal: every API request the service answered, for assertions in tests.

Each entry keeps the method, the raw path, the decoded query, the acting user (after
sudo), the status, the decoded request body and whether a fault dropped the connection.
Control-plane requests (``/_fake/...``) are not recorded. The journal is not part of
snapshots: restoring a snapshot keeps it, :meth:`Journal.clear` (or a reset) empties it.
Listeners (:meth:`Journal.add_listener`) get each new entry as it is recorded (the live
dashboard). It is a ring of at most ``capacity`` entries (10,000 unless the ``FakeService``
argument ``journal_capacity``, the scenario's ``journal: {capacity: N}`` or
``fakeservice serve --journal-size N`` says otherwise): older entries are forgotten
first and counted in :attr:`Journal.dropped`, so a long-running server's memory stays
bounded.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from fakeservice.control.patterns import RequestPattern
from fakeservice.core.errors import MalformedString
from fakeservice.web.http import BodyError, Request, UploadedFile, parse_body, parse_query

DEFAULT_CAPACITY = 10_000
JournalListener = Callable[["JournalEntry"], None]
MAX_CAPACITY = 10_000_000


@attrs.frozen
class JournalEntry:
    seq: int
    time: str
    method: str
    path: str
    query: dict[str, Any]
    user: str | None
    status: int
    body: Any = None
    sudo_by: str | None = None
    dropped: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "time": self.time,
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "user": self.user,
            "sudo_by": self.sudo_by,
            "status": self.status,
            "body": self.body,
            "dropped": self.dropped,
        }


Kept = JournalEntry | tuple[int, JournalEntry]  # an entry, or (seq, entry) repeated


def _made(kept: Kept) -> JournalEntry:
    """The entry kept in the ring (a repeat is made an entry of its own)."""
    if isinstance(kept, JournalEntry):
        return kept
    seq, entry = kept
    return attrs.evolve(entry, seq=seq)


def decode_body(request: Request) -> Any:
    """The request body as data: JSON, form fields, multipart (files summarised) or text."""
    raw = request.body
    if not raw:
        return None
    ctype = (request.header("content-type") or "").lower()
    if "json" in ctype or "multipart/form-data" in ctype or "x-www-form-urlencoded" in ctype:
        try:
            return _plain(parse_body(request))
        except (BodyError, MalformedString):
            return raw.decode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


def _plain(value: Any) -> Any:
    if isinstance(value, UploadedFile):
        return {
            "filename": value.filename,
            "content_type": value.content_type,
            "size": len(value.data),
        }
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


class Journal:
    """Thread-safe, ordered record of answered requests."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._lock = threading.Lock()
        self._entries: deque[Kept] = deque(maxlen=_checked(capacity))
        self._seq = 0
        self._listeners: list[JournalListener] = []
        self._dropped = 0

    def add_listener(self, listener: JournalListener) -> None:
        """Call ``listener(entry)`` after each entry is recorded."""
        self._listeners.append(listener)

    def remove_listener(self, listener: JournalListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    @property
    def capacity(self) -> int:
        """The most entries kept."""
        return self._entries.maxlen or DEFAULT_CAPACITY

    @property
    def dropped(self) -> int:
        """Entries forgotten (to keep within the capacity) since the journal was emptied."""
        return self._dropped

    def resize(self, capacity: int) -> None:
        """Keep at most ``capacity`` entries from now on (the newest ones stay)."""
        capacity = _checked(capacity)
        with self._lock:
            kept = deque(self._entries, maxlen=capacity)
            self._dropped += len(self._entries) - len(kept)
            self._entries = kept

    def record(
        self,
        request: Request,
        *,
        status: int,
        time: str,
        user: str | None,
        sudo_by: str | None = None,
        dropped: bool = False,
    ) -> JournalEntry:
        with self._lock:
            self._seq += 1
            entry = JournalEntry(
                seq=self._seq,
                time=time,
                method=request.method,
                path=request.raw_path,
                query=parse_query(request.query_string, strict=False),
                user=user,
                status=status,
                body=decode_body(request),
                sudo_by=sudo_by,
                dropped=dropped,
            )
            self._append(entry)
        for listener in self._listeners:
            listener(entry)
        return entry

    def repeat(self, entry: JournalEntry) -> None:
        """Record the same request with the same answer as ``entry`` once more (an answer
        served again, see :mod:`fakeservice.web.answers`): an entry with the next ``seq``
        and every other field equal. It is kept as ``(seq, entry)`` and made a
        :class:`JournalEntry` when read (this is on the fake's fastest path)."""
        with self._lock:
            self._seq += 1
            again: Kept = (self._seq, entry)
            self._append(again)
        if self._listeners:
            made = _made(again)
            for listener in self._listeners:
                listener(made)

    def _append(self, entry: Kept) -> None:
        """Keep ``entry`` (the lock held), forgetting the oldest one when full."""
        if len(self._entries) == self._entries.maxlen:
            self._dropped += 1
        self._entries.append(entry)

    def entries(
        self,
        method: str | None = None,
        path: str | None = None,
        user: str | None = None,
        status: int | None = None,
    ) -> list[JournalEntry]:
        """Entries in order, filtered: ``path`` is a glob (see :mod:`.patterns`), ``user``
        a username (case-insensitive)."""
        pattern = RequestPattern(path=path or "/**", method=method or "*")
        wanted_user = user.lower() if user else None
        with self._lock:
            snapshot = list(self._entries)
        return [
            entry
            for entry in map(_made, snapshot)
            if pattern.matches(entry.method, entry.path)
            and (wanted_user is None or (entry.user or "").lower() == wanted_user)
            and (status is None or entry.status == status)
        ]

    def count(
        self,
        method: str | None = None,
        path: str | None = None,
        user: str | None = None,
        status: int | None = None,
    ) -> int:
        return len(self.entries(method, path, user, status))

    def tail(self, count: int) -> list[JournalEntry]:
        """The newest ``count`` entries, oldest first."""
        with self._lock:
            newest = list(itertools.islice(reversed(self._entries), count))
        return [_made(kept) for kept in reversed(newest)]

    def last(self) -> JournalEntry | None:
        with self._lock:
            return _made(self._entries[-1]) if self._entries else None

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._dropped = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[JournalEntry]:
        with self._lock:
            return iter(list(map(_made, self._entries)))


def _checked(capacity: int) -> int:
    if isinstance(capacity, bool) or not isinstance(capacity, int):
        raise ValueError("the journal capacity is a whole number")
    if not 1 <= capacity <= MAX_CAPACITY:
        raise ValueError(f"the journal capacity is between 1 and {MAX_CAPACITY:,}")
    return capacity
