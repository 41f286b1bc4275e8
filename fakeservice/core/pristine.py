"""Unpickled initial states, kept once per process for :meth:`Store.rollback`.

Undoing a test's changes copies the touched records out of the pristine state, so the
snapshot bytes are unpickled once (on the first reset) and shared by every service
stamped from them. The pristine state is never modified. The few most recently used
states are kept.
"""

from __future__ import annotations

import pickle
import threading
from typing import Any

from fakeservice.core.packing import unpacked

CAPACITY = 8

_lock = threading.Lock()
_states: dict[int, tuple[bytes, Any]] = {}


def pristine_state(snapshot: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
    """The store state and clock state of a service snapshot (the bytes of
    ``FakeService.snapshot``, compressed or not), unpickled once per bytes object and then shared."""
    key = id(snapshot)
    with _lock:
        found = _states.get(key)
        if found is not None and found[0] is snapshot:
            _states[key] = _states.pop(key)  # most recently used last
            return found[1]
    store_bytes, clock_state = pickle.loads(unpacked(snapshot))
    state = (pickle.loads(store_bytes), clock_state)
    with _lock:
        _states[key] = (snapshot, state)
        while len(_states) > CAPACITY:
            del _states[next(iter(_states))]
    return state
