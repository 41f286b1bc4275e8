"""Fixtures and helpers of the export and import tests: services stamped from the
built-in default scenario, a small HTTP server that records what it receives and serves
what it is given, and archive builders (good and hostile)."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from support.calls import body, call
from support.machines import background  # noqa: F401  (re-exported for the tests)
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService
from fakeservice.web.http import Response

ALICE = "alice-token"


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


class Recorder(ThreadingHTTPServer):
    """Records every request (method, path, headers, body); answers ``status`` with
    ``payload`` served as ``content_type``."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.received: list[dict[str, Any]] = []
        self.status = 200
        self.payload = b""
        self.content_type = "application/gzip"
        self.length: str | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: Recorder

    def _record(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        self.server.received.append(
            {
                "method": self.command,
                "path": self.path,
                "content_type": self.headers.get("Content-Type"),
                "body": self.rfile.read(size),
            }
        )
        self.send_response(self.server.status)
        self.send_header("Content-Type", self.server.content_type)
        length = self.server.length or str(len(self.server.payload))
        self.send_header("Content-Length", length)
        self.end_headers()
        self.wfile.write(self.server.payload)

    do_PUT = do_POST = do_GET = _record

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    server = Recorder()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def exported(svc: FakeService, project: str = "1") -> bytes:
    """Export a project (instant mode) and download the archive."""
    assert call(svc, "POST", f"/projects/{project}/export").status == 202
    answer = call(svc, "GET", f"/projects/{project}/export/download")
    assert answer.status == 200, answer.body
    return answer.body


def import_archive(
    svc: FakeService, data: bytes, path: str = "copy", token: str = ALICE, **fields: str
) -> Response:
    client = svc.httpx_client()
    answer = client.post(
        "/api/v4/projects/import",
        headers={"PRIVATE-TOKEN": token},
        data={"path": path, "namespace": "acme", **fields},
        files={"file": ("export.tar.gz", data, "application/gzip")},
    )
    return Response(answer.status_code, list(answer.headers.items()), answer.content)


def import_status(svc: FakeService, path: str = "acme%2Fcopy") -> dict[str, Any]:
    return body(call(svc, "GET", f"/projects/{path}/import"))


def make_archive(
    members: dict[str, bytes] | None = None,
    *,
    links: dict[str, str] | None = None,
    hardlinks: dict[str, str] | None = None,
    version: bytes = b"0.2.4",
    project: Any = None,
) -> bytes:
    """A gzip tar with ``VERSION`` and ``tree/project.json`` unless overridden, plus the
    given members, symlinks and hard links."""
    files = {
        "VERSION": version,
        "tree/project.json": json.dumps(project or {"description": "d"}).encode(),
    }
    files.update(members or {})
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
        for name, target in (hardlinks or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.LNKTYPE, target
            tar.addfile(info)
    return gzip.compress(raw.getvalue(), mtime=0)
