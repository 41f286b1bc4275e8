"""Built scenarios, kept once per process and stamped out per test.

Loading a scenario validates and builds every record (milliseconds to much more for
large scenarios); stamping a :class:`~fakeservice.service.ServiceTemplate` restores a
snapshot (about as long as a reset). Each process has its own cache, so pytest-xdist
workers share nothing. A file is built again when its modification time or size
changes.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from fakeservice.scenarios.source import find_file
from fakeservice.service import FakeService, ServiceTemplate

_lock = threading.Lock()
_cache: dict[tuple[str, int, int], ServiceTemplate] = {}


def resolve(ref: str | Path, search: list[Path]) -> Path:
    """The scenario file ``ref`` names: tried in each of ``search`` (as given and with
    ``.yaml``), then among the built-in scenarios."""
    path = Path(ref)
    if path.is_absolute() and path.is_file():
        return path
    for base in search:
        for candidate in (base / path, base / f"{ref}.yaml"):
            if candidate.is_file():
                return candidate.resolve()
    return find_file(ref).resolve()


def template_for(path: Path) -> ServiceTemplate:
    """The template of the scenario file ``path``, built on first use in this process."""
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _lock:
        found = _cache.get(key)
    if found is None:
        found = FakeService(path).template()
        with _lock:
            _cache[key] = found
    return found


def service_for(ref: str | Path, search: list[Path] | None = None, **kw: Any) -> FakeService:
    """A fresh service in the state of scenario ``ref`` (cached per process)."""
    return FakeService.from_template(template_for(resolve(ref, search or [Path.cwd()])), **kw)


def recycled_service(ref: str | Path, search: list[Path] | None = None) -> FakeService:
    """The process's one service of scenario ``ref``, put back into the scenario's state
    (see :mod:`fakeservice.testing.recycle`)."""
    from fakeservice.testing.recycle import recycled

    return recycled(template_for(resolve(ref, search or [Path.cwd()])))


def clear_cache() -> None:
    from fakeservice.testing.recycle import forget

    with _lock:
        _cache.clear()
    forget()
