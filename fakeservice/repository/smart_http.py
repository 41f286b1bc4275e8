"""Git smart HTTP (clone, fetch, push) for one :class:`~fakeservice.repository.git.Repository`.

:func:`handle` is a pure function of a request: the web layer passes the method, the
part of the path after ``<namespace>/<project>.git``, the query, lower-cased headers and
the body, and sends back the ``(status, headers, body)`` it returns. Authentication is
the caller's job; only ``can_push`` reaches this module.

The protocol work is done by dulwich's server-side handlers (``UploadPackHandler`` and
``ReceivePackHandler``) in stateless RPC mode, over an adapter that exposes the
repository's own object store and refs, so a push is visible to the rest of the service
at once. Only protocol v0/v1 is spoken (git clients asking for v2 fall back); the dumb
protocol is not offered.

Pushes are checked ref by ref before any ref moves: only ``refs/heads/*`` and
``refs/tags/*`` may change, the ref must still hold the value the client saw, a branch
must point at a commit, the default branch cannot be deleted, and an optional
``authorize`` callback may refuse an update with a message. Objects of a refused push
stay in the object store unreferenced (as unreachable objects do in git).
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Callable, Mapping
from typing import Any

from dulwich.config import ConfigFile, StackedConfig
from dulwich.errors import GitProtocolError, HangupException, HookError
from dulwich.hooks import Hook
from dulwich.protocol import ReceivableProtocol
from dulwich.repo import MemoryRepo
from dulwich.server import Backend, ReceivePackHandler, UploadPackHandler

from fakeservice.repository.git import HEADS, TAGS, TYPE_COMMIT, ZERO_SHA, RefUpdate, Repository

Response = tuple[int, list[tuple[str, str]], bytes]
RefListener = Callable[[list[RefUpdate]], None]
RefAuthorizer = Callable[[RefUpdate], str | None]

UPLOAD_PACK = "git-upload-pack"
RECEIVE_PACK = "git-receive-pack"
SERVICES = (UPLOAD_PACK, RECEIVE_PACK)
PUSH_FORBIDDEN = "You are not allowed to push code to this project.\n"

_HANDLERS: dict[str, Any] = {UPLOAD_PACK: UploadPackHandler, RECEIVE_PACK: ReceivePackHandler}
_NO_CACHE = [
    ("Expires", "Fri, 01 Jan 1980 00:00:00 GMT"),
    ("Pragma", "no-cache"),
    ("Cache-Control", "no-cache, max-age=0, must-revalidate"),
]


def handle(
    repo: Repository,
    method: str,
    subpath: str,
    query: Mapping[str, Any],
    headers: Mapping[str, str],
    body: bytes,
    *,
    can_push: bool,
    on_ref_update: RefListener | None = None,
    authorize: RefAuthorizer | None = None,
) -> Response:
    """Answer one smart HTTP request for ``repo``.

    * ``GET /info/refs?service=git-upload-pack|git-receive-pack``: the ref advertisement.
    * ``POST /git-upload-pack``: send objects (clone, fetch).
    * ``POST /git-receive-pack``: receive objects and move refs (push).

    Receive-pack (advertisement included) answers 403 when ``can_push`` is false.
    After a push, ``on_ref_update`` gets the refs that moved (nothing if none did);
    ``authorize(update)`` may return a message to refuse one ref update.
    Unknown paths answer 404, a wrong method 405, a malformed request 400.
    """
    path = "/" + subpath.strip("/")
    if path == "/info/refs":
        if method.upper() not in ("GET", "HEAD"):
            return _text(405, "Method Not Allowed\n", [("Allow", "GET")])
        return _advertise(repo, _first(query.get("service")), can_push)
    service = path[1:]
    if service not in SERVICES:
        return _text(404, "Not Found\n")
    if method.upper() != "POST":
        return _text(405, "Method Not Allowed\n", [("Allow", "POST")])
    if service == RECEIVE_PACK and not can_push:
        return _text(403, PUSH_FORBIDDEN)
    try:
        payload = _decode_body(body, headers.get("content-encoding", ""))
    except (OSError, EOFError, zlib.error):
        return _text(400, "Bad Request: the request body could not be decompressed\n")
    return _rpc(repo, service, payload, on_ref_update, authorize)


def _advertise(repo: Repository, service: str | None, can_push: bool) -> Response:
    if service not in SERVICES:
        return _text(403, "Only the smart HTTP protocol is supported\n")
    if service == RECEIVE_PACK and not can_push:
        return _text(403, PUSH_FORBIDDEN)
    banner = io.BytesIO()
    _pkt(banner, f"# service={service}\n".encode())
    banner.write(b"0000")
    try:
        output = _run(repo, service, b"", advertise=True, guard=None)
    except (GitProtocolError, HangupException) as error:
        return _text(400, f"{error}\n")
    content_type = f"application/x-{service}-advertisement"
    return 200, [("Content-Type", content_type), *_NO_CACHE], banner.getvalue() + output


def _rpc(
    repo: Repository,
    service: str,
    payload: bytes,
    on_ref_update: RefListener | None,
    authorize: RefAuthorizer | None,
) -> Response:
    pushing = service == RECEIVE_PACK
    before = repo.refs() if pushing else {}
    was_empty = repo.is_empty
    guard = _UpdateGuard(repo, authorize) if pushing else None
    try:
        output = _run(repo, service, payload, advertise=False, guard=guard)
    except (GitProtocolError, HangupException) as error:
        return _text(400, f"{error}\n")
    if pushing:
        updates = _changes(before, repo.refs())
        if was_empty:
            repo.adopt_default_branch(u.branch for u in updates if u.branch and not u.deleted)
        if updates and on_ref_update is not None:
            on_ref_update(updates)
    return 200, [("Content-Type", f"application/x-{service}-result"), *_NO_CACHE], output


def _run(
    repo: Repository, service: str, payload: bytes, *, advertise: bool, guard: Hook | None
) -> bytes:
    """Run one dulwich handler over ``payload``; returns what it wrote."""
    out = io.BytesIO()

    def write(data: bytes) -> int:
        return out.write(data)

    served = _ServedRepo(repo, guard)
    proto = ReceivableProtocol(io.BytesIO(payload).read, write)
    handler = _HANDLERS[service](
        _Backend(served), ["/"], proto, stateless_rpc=True, advertise_refs=advertise
    )
    handler.handle()
    return out.getvalue()


def _changes(before: dict[str, str], after: dict[str, str]) -> list[RefUpdate]:
    names = sorted(set(before) | set(after))
    return [
        RefUpdate(name, before.get(name, ZERO_SHA), after.get(name, ZERO_SHA))
        for name in names
        if before.get(name) != after.get(name)
    ]


def _decode_body(body: bytes, encoding: str) -> bytes:
    encoding = encoding.strip().lower()
    if encoding in ("gzip", "x-gzip"):
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    return body


def _first(value: Any) -> str | None:
    if isinstance(value, list | tuple):
        value = value[0] if value else None
    return value if isinstance(value, str) else None


def _pkt(out: io.BytesIO, data: bytes) -> None:
    out.write(f"{len(data) + 4:04x}".encode() + data)


def _text(status: int, message: str, extra: list[tuple[str, str]] | None = None) -> Response:
    headers = [("Content-Type", "text/plain; charset=utf-8"), *_NO_CACHE, *(extra or [])]
    return status, headers, message.encode()


class _UpdateGuard(Hook):
    """dulwich ``update`` hook: refuses a ref update by raising ``HookError``."""

    def __init__(self, repo: Repository, authorize: RefAuthorizer | None) -> None:
        self._repo = repo
        self._authorize = authorize

    def execute(self, *args: Any) -> tuple[bytes, bytes]:
        ref, old, new = (a.decode() if isinstance(a, bytes) else a for a in args)
        problem = self._problem(RefUpdate(ref, old, new))
        if problem:
            raise HookError(problem)
        return b"", b""

    def _problem(self, update: RefUpdate) -> str | None:
        name = update.ref.encode()
        if not name.startswith((HEADS, TAGS)):
            return "deny updating a hidden ref"
        if self._repo.refs().get(update.ref, ZERO_SHA) != update.old:
            return "failed to update ref"
        if update.branch is not None and not update.deleted:
            item = self._repo.object_store.raw.get(update.new.encode())
            if item is None or item[0] != TYPE_COMMIT:
                return "invalid commit"
        if update.deleted and update.branch == self._repo.default_branch:
            return "The default branch of a project cannot be deleted."
        return self._authorize(update) if self._authorize is not None else None


class _ServedRepo(MemoryRepo):
    """The dulwich view of a :class:`Repository` (same objects, same refs dict)."""

    def __init__(self, repo: Repository, guard: Hook | None) -> None:
        super().__init__()
        self.object_store = repo.object_store
        self.refs = repo.refs_container()
        self.repo = self  # lets upload-pack peel tags for include-tag
        if guard is not None:
            self.hooks["update"] = guard

    def get_config_stack(self) -> StackedConfig:
        return StackedConfig([ConfigFile()])


class _Backend(Backend):
    def __init__(self, repo: _ServedRepo) -> None:
        self._repo = repo

    def open_repository(self, path: str) -> _ServedRepo:
        return self._repo
