"""Persisting a service's state to a file: a base snapshot plus an append-only log.

The file starts with :data:`MAGIC`, then frames (length, CRC-32, pickled payload). The
first frame is the base: the bytes of :meth:`FakeService.snapshot` (store and clock) in
a small versioned envelope. Each following frame is the delta of one state-changing
request (:mod:`fakeservice.core.changes`: the records, sequences and extras it touched,
and the clock), appended and fsynced before the response goes out, so a write costs
what it changed, not the size of the state. When the log outgrows the base (and
:data:`COMPACT_AT` bytes), or after a reset or restore, the whole state is written
again: a temporary file in the same directory, flushed and fsynced, put in place with
``os.replace`` (and the directory fsynced).

A crash (even ``kill -9``) at any moment loses no acknowledged write: a torn last frame
was never acknowledged and is ignored when reading, and an interrupted compaction left
the previous file whole; its temporary file is removed the next time the file is
loaded or persisted to. Files of the earlier format (one pickled envelope) still load.
The file is a pickle: load only files this tool wrote.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pickle
import struct
import sys
import tempfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fakeservice.core import changes

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

FORMAT = "fakeservice-state"
VERSION = 2
LEGACY_VERSION = 1  # one pickled envelope, no log
MAGIC = b"fakeservice-state-log\n"
FRAME = struct.Struct(">QI")  # payload length, CRC-32 of the payload
COMPACT_AT = 1 << 20
SAVE_METHODS_EXCLUDED = frozenset({"GET", "HEAD", "OPTIONS"})


class StateFileError(RuntimeError):
    """A state file that cannot be read or written."""


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, whole."""
    directory = path.parent if str(path.parent) else Path(".")
    remove_strays(path)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def frame(payload: bytes) -> bytes:
    return FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def _envelope(service: FakeService) -> bytes:
    envelope = {"format": FORMAT, "version": VERSION, "snapshot": service.snapshot()}
    return pickle.dumps(envelope, protocol=pickle.HIGHEST_PROTOCOL)


def save_state(service: FakeService, path: str | Path) -> int:
    """Write the whole state to ``path`` atomically; returns the file's size."""
    data = MAGIC + frame(_envelope(service))
    try:
        write_atomic(Path(path), data)
    except OSError as exc:
        raise StateFileError(f"cannot write the state file {path}: {exc.strerror}") from exc
    return len(data)


def _frames(raw: bytes) -> tuple[list[bytes], int]:
    """The whole frames after the magic, and where the last whole one ends."""
    found, position = [], len(MAGIC)
    while position + FRAME.size <= len(raw):
        length, crc = FRAME.unpack_from(raw, position)
        start, end = position + FRAME.size, position + FRAME.size + length
        if end > len(raw) or zlib.crc32(raw[start:end]) != crc:
            break  # a torn write at the end: never acknowledged
        found.append(raw[start:end])
        position = end
    return found, position


def _check(envelope: Any, path: str | Path, versions: tuple[int, ...]) -> bytes:
    if not isinstance(envelope, dict) or envelope.get("format") != FORMAT:
        raise StateFileError(f"{path} is not a fakeservice state file")
    if envelope.get("version") not in versions:
        raise StateFileError(
            f"{path} has state format version {envelope.get('version')}, this build reads {VERSION}"
        )
    return envelope["snapshot"]


def _damaged(path: str | Path) -> StateFileError:
    return StateFileError(f"{path} is not a fakeservice state file (or it is damaged)")


def read_log(path: str | Path) -> tuple[bytes, list[Any]]:
    """The base snapshot bytes stored in ``path`` and the deltas logged after it."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise StateFileError(f"cannot read the state file {path}: {exc.strerror}") from exc
    if not raw.startswith(MAGIC):
        try:
            envelope: Any = pickle.loads(raw)
        except Exception as exc:
            raise _damaged(path) from exc
        return _check(envelope, path, (LEGACY_VERSION,)), []
    found, _end = _frames(raw)
    if not found:
        raise _damaged(path)
    try:
        base = pickle.loads(found[0])
        deltas = [pickle.loads(item) for item in found[1:]]
    except Exception as exc:
        raise _damaged(path) from exc
    return _check(base, path, (VERSION,)), deltas


def read_state(path: str | Path) -> bytes:
    """The base snapshot bytes stored in ``path`` (without the logged changes)."""
    return read_log(path)[0]


def remove_strays(path: str | Path) -> None:
    """Remove the temporary files an interrupted save of ``path`` left behind."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    with contextlib.suppress(OSError):
        for stray in directory.glob(f".{glob.escape(path.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                stray.unlink()


def load_state(service: FakeService, path: str | Path) -> None:
    snapshot, deltas = read_log(path)
    remove_strays(path)
    try:
        service.restore(snapshot)
        for delta in deltas:
            changes.apply(service.store, delta["store"])
            service.clock.load_state(delta["clock"])
    except Exception as exc:
        raise StateFileError(
            f"{path} was written by an incompatible build of fakeservice: {exc}"
        ) from exc


class Persister:
    """An after-request hook saving each state-changing request's changes (see the module
    docstring): appended to the log, or the whole state when the log is due for
    compaction, after a reset or restore, and the first time."""

    def __init__(
        self, service: FakeService, path: str | Path, compact_at: int = COMPACT_AT
    ) -> None:
        self.service = service
        self.path = Path(path)
        self.compact_at = compact_at
        self.saves = 0
        self.compactions = 0
        self.base_size = 0
        self.log_size = 0
        self.generation: int | None = None  # the store's, at the last whole save
        remove_strays(self.path)

    def __call__(self, request: Any, response: Any, caller: Any) -> None:
        if request.method in SAVE_METHODS_EXCLUDED:
            return
        try:
            with self.service.store.lock:
                self._save()
        except StateFileError as exc:  # keep serving; the previous file stays whole
            self.generation = None
            self.service.server_errors.append(exc)
            print(f"fakeservice: {exc}", file=sys.stderr)
            return
        self.saves += 1

    def _save(self) -> None:
        store = self.service.store
        due = self.log_size > max(self.compact_at, self.base_size)
        if self.generation != store.generation or due or not self.path.exists():
            self.compact()
            return
        payload = {"store": changes.collect(store), "clock": self.service.clock.state()}
        data = frame(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
        try:
            with open(self.path, "ab") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            raise StateFileError(
                f"cannot write the state file {self.path}: {exc.strerror}"
            ) from exc
        self.log_size += len(data)

    def compact(self) -> None:
        """Write the whole state (the log starts afresh)."""
        store = self.service.store
        self.base_size = save_state(self.service, self.path)
        changes.watch(store)
        self.generation = store.generation
        self.log_size = 0
        self.compactions += 1
