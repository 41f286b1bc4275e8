"""The store's lock: re-entrant, and counting how often it was taken.

Everything that changes the state takes the store's lock (requests while they run their
handler, the runner and clock helpers of the Python API, the hook sender's thread...).
:attr:`StoreLock.taken` counts the acquisitions, so while it stands still nothing can
have changed the state (see :mod:`fakeservice.web.answers`, which serves repeated reads
from the answers they last got on that ground).

A read that wants its own acquisitions not to count (it wrote nothing, so it changed
nothing) takes the lock with :meth:`StoreLock.hold` and, when done, puts the count back
with :meth:`StoreLock.forget`: while it holds the lock, no other thread can have taken
it, so every acquisition counted meanwhile was its own.
"""

from __future__ import annotations

import threading
from types import TracebackType


class StoreLock:
    """A re-entrant lock (``with lock:``) counting its acquisitions in :attr:`taken`."""

    __slots__ = ("_lock", "taken")

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.taken = 0

    def __enter__(self) -> StoreLock:
        self._lock.acquire()
        self.taken += 1
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._lock.release()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if not self._lock.acquire(blocking, timeout):
            return False
        self.taken += 1
        return True

    def release(self) -> None:
        self._lock.release()

    # -- reads that do not count -----------------------------------------------------
    def hold(self) -> int:
        """Take the lock without counting it; answers the count at that moment (for
        :meth:`forget`). Release it with :meth:`release`."""
        self._lock.acquire()
        return self.taken

    def forget(self, taken: int) -> None:
        """Put the count back to ``taken`` (from :meth:`hold`, the lock still held): the
        acquisitions since were the holder's own, and changed nothing."""
        self.taken = taken
