"""Record what every operation answers while a test suite runs, and merge the records.

A pytest plugin: ``FAKESERVICE_RECORD_DIR=/tmp/rec pytest -p fakeservice.web.schemas.record
tests`` wraps the dispatch of every :class:`~fakeservice.service.FakeService` and writes,
per test process, the statuses each operation answered and the schema of its JSON
success bodies. ``python -m fakeservice.web.schemas.record /tmp/rec`` merges those files
into ``observed.json`` (see :mod:`fakeservice.web.schemas`). Answers made by a fault or
a rate limit (a before-request hook) and 5xx answers are not recorded: they are not the
operation's own behaviour.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

from fakeservice.core.errors import MalformedString
from fakeservice.web.schemas import OBSERVED_FILE, operation_key
from fakeservice.web.schemas.declared import DECLARED
from fakeservice.web.schemas.infer import finish, merge, shape, unfinish

Records = dict[str, dict[str, Any]]
_records: Records = {}
_hooked = threading.local()


def _content_type(response: Any) -> str:
    value = response.header("content-type") or ""
    return value.split(";")[0].strip()


def note(key: str, status: int, content_type: str, body: bytes, raw: bool = False) -> None:
    """Add one answer of the operation ``key`` to the records (of a ``raw`` operation,
    one that declares what it ``produces``, no schema: its bodies are files, not views)."""
    entry = _records.setdefault(key, {"statuses": set()})
    entry["statuses"].add(status)
    if not 200 <= status < 300 or not body:
        return
    entry.setdefault("content_types", set()).add(content_type)
    if raw or content_type != "application/json" or key in DECLARED:
        return
    try:
        value = json.loads(body)
    except ValueError:
        return
    found = shape(value)
    entry["schema"] = merge(entry["schema"], found) if "schema" in entry else found


# Modules that call ``dispatch`` by the name they imported (the ASGI layer may change).
# ``web.raw`` serves a live server's requests (git over HTTP, the uvicorn tests).
CALLERS = (
    "fakeservice.web.answers",
    "fakeservice.web.asgi",
    "fakeservice.web.app",
    "fakeservice.web.raw",
)


def _install() -> None:
    import importlib

    from fakeservice.service import FakeService
    from fakeservice.web import dispatch as dispatch_module

    original = dispatch_module.dispatch
    before = FakeService.before_request

    def before_request(self: Any, request: Any) -> Any:
        early = before(self, request)
        _hooked.early = early is not None
        return early

    def dispatch(service: Any, request: Any) -> Any:
        _hooked.early = False
        response = original(service, request)
        if _hooked.early or response.status >= 500 or response.drop:
            return response
        try:
            found = service.router.resolve(request.method, request.raw_path)
        except (UnicodeDecodeError, MalformedString):  # an undecodable path: a 400, not recorded
            return response
        if found is None or isinstance(found, list):
            return response
        endpoint = found.endpoint
        key = operation_key(endpoint.method, endpoint.prefix + endpoint.pattern)
        body = response.body if request.method != "HEAD" else b""
        note(key, response.status, _content_type(response), body, raw=bool(endpoint.produces))
        return response

    FakeService.before_request = before_request  # type: ignore[method-assign]
    for name in CALLERS:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if getattr(module, "dispatch", None) is original:
            module.dispatch = dispatch  # type: ignore[attr-defined]


def pytest_configure(config: Any) -> None:
    if os.environ.get("FAKESERVICE_RECORD_DIR"):
        _install()


def pytest_unconfigure(config: Any) -> None:
    folder = os.environ.get("FAKESERVICE_RECORD_DIR")
    if not folder:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    out = {key: _serialisable(entry) for key, entry in _records.items()}
    Path(folder).mkdir(parents=True, exist_ok=True)
    Path(folder, f"{worker}-{os.getpid()}.json").write_text(json.dumps(out, sort_keys=True))


def _serialisable(entry: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"statuses": sorted(entry["statuses"])}
    if "content_types" in entry:
        out["content_types"] = sorted(entry["content_types"])
    if "schema" in entry:
        out["schema"] = finish(entry["schema"])
    return out


def merge_files(paths: list[Path]) -> Records:
    """Merge the per-process record files into one mapping (sorted, stable)."""
    merged: Records = {}
    for path in sorted(paths):
        for key, entry in json.loads(path.read_text()).items():
            into = merged.setdefault(key, {"statuses": set(), "content_types": set()})
            into["statuses"].update(entry["statuses"])
            into["content_types"].update(entry.get("content_types", []))
            if "schema" in entry:
                found = unfinish(entry["schema"])
                into["schema"] = merge(into["schema"], found) if "schema" in into else found
    out: Records = {}
    for key in sorted(merged):
        entry = merged[key]
        item: dict[str, Any] = {"statuses": sorted(entry["statuses"])}
        if entry["content_types"]:
            item["content_types"] = sorted(entry["content_types"])
        if "schema" in entry:
            item["schema"] = finish(entry["schema"])
        out[key] = item
    return out


def main(argv: list[str]) -> int:
    folder = Path(argv[0])
    merged = merge_files(list(folder.glob("*.json")))
    OBSERVED_FILE.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n")
    print(f"{len(merged)} operations written to {OBSERVED_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
