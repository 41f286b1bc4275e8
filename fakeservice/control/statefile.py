"""Persisting a service's state to a file, atomically.

The file holds the bytes of :meth:`FakeService.snapshot` (store and clock) in a small
versioned envelope. Saving writes a temporary file in the same directory, flushes and
fsyncs it, then ``os.replace`` puts it in place (and the directory is fsynced), so a
crash mid-write leaves the previous file whole, and the next save sweeps away the
temporary file a killed process left behind. The file is a pickle: load only files
this tool wrote.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fakeservice.service import FakeService

FORMAT = "fakeservice-state"
VERSION = 1
SAVE_METHODS_EXCLUDED = frozenset({"GET", "HEAD", "OPTIONS"})


class StateFileError(RuntimeError):
    """A state file that cannot be read or written."""


def sweep_temporaries(path: Path) -> None:
    """Remove the temporary files a process killed mid-write left next to ``path``."""
    directory = path.parent if str(path.parent) else Path(".")
    with contextlib.suppress(OSError):
        for stray in directory.glob(f".{glob.escape(path.name)}.*.tmp"):
            with contextlib.suppress(OSError):
                stray.unlink()


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, whole."""
    directory = path.parent if str(path.parent) else Path(".")
    sweep_temporaries(path)
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


def save_state(service: FakeService, path: str | Path) -> None:
    envelope = {"format": FORMAT, "version": VERSION, "snapshot": service.snapshot()}
    try:
        write_atomic(Path(path), pickle.dumps(envelope, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError as exc:
        raise StateFileError(f"cannot write the state file {path}: {exc.strerror}") from exc


def read_state(path: str | Path) -> bytes:
    """The snapshot bytes stored in ``path``."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise StateFileError(f"cannot read the state file {path}: {exc.strerror}") from exc
    try:
        envelope: Any = pickle.loads(raw)
    except Exception as exc:
        raise StateFileError(f"{path} is not a fakeservice state file (or it is damaged)") from exc
    if not isinstance(envelope, dict) or envelope.get("format") != FORMAT:
        raise StateFileError(f"{path} is not a fakeservice state file")
    if envelope.get("version") != VERSION:
        raise StateFileError(
            f"{path} has state format version {envelope.get('version')}, this build reads {VERSION}"
        )
    return envelope["snapshot"]


def load_state(service: FakeService, path: str | Path) -> None:
    snapshot = read_state(path)
    try:
        service.restore(snapshot)
    except Exception as exc:
        raise StateFileError(
            f"{path} was written by an incompatible build of fakeservice: {exc}"
        ) from exc


class Persister:
    """An after-request hook saving the state after each state-changing request."""

    def __init__(self, service: FakeService, path: str | Path) -> None:
        self.service = service
        self.path = Path(path)
        self.saves = 0

    def __call__(self, request: Any, response: Any, caller: Any) -> None:
        if request.method in SAVE_METHODS_EXCLUDED:
            return
        try:
            save_state(self.service, self.path)
        except StateFileError as exc:  # keep serving; the previous file stays whole
            self.service.server_errors.append(exc)
            print(f"fakeservice: {exc}", file=sys.stderr)
            return
        self.saves += 1
