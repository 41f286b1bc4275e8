"""Pausing Python's cyclic garbage collector while a big state is built or pickled.

Loading a scenario of thousands of records allocates hundreds of thousands of objects
that all survive; each allocation burst makes the collector walk the young ones, and
every few bursts the whole heap (every module, every record already built), so building
a big state costs several times its own work, more the bigger the process already is.
Nothing built there is cyclic garbage worth collecting at once, so :func:`paused`
holds the collector for the duration and gives it back as it was.

Pauses nest and may overlap across threads: the collector is held from the first
pause in and resumed when the last one leaves, and only if it was running before the
first (a program that turned it off keeps it off).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_held = 0  # pauses under way, in every thread
_resume = False  # whether the collector ran before the first of them


@contextmanager
def paused() -> Iterator[None]:
    """No automatic garbage collection inside (see the module docstring)."""
    global _held, _resume
    with _lock:
        if _held == 0:
            _resume = gc.isenabled()
            gc.disable()
        _held += 1
    try:
        yield
    finally:
        with _lock:
            _held -= 1
            if _held == 0 and _resume:
                gc.enable()
