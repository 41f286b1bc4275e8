"""The raw ASGI callable around :func:`~fakeservice.web.dispatch.dispatch`.

It turns ASGI HTTP events into a :class:`Request` and back, with no thread portal: the
synchronous dispatch runs on the event loop (it never blocks on I/O). The raw path
(``scope["raw_path"]``) is used so that ``%2F`` inside a path segment is kept for routing;
the part of it the fake is mounted under (``fakeservice.root_path``, set by the Starlette
application) is taken off first and kept as the request's ``root_path``, so the links the
fake writes (``Link``, ``web_url``...) point under it. A response marked ``drop`` (fault injection) is cut short
so the client sees a broken connection; ``delay`` waits before answering. ``Date`` comes
from the service's clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, MutableMapping
from email.utils import format_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fakeservice.web.answers import Answer
from fakeservice.web.dispatch import dispatch
from fakeservice.web.http import MAX_BODY_BYTES, Request

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

ROOT_KEY = "fakeservice.root_path"


class RawDispatch:
    """An ASGI app answering every HTTP request with the service's dispatch."""

    def __init__(self, service: FakeService) -> None:
        self.service = service
        self._date: tuple[int, bytes] = (0, b"")

    def date(self) -> bytes:
        """``Date`` for the service's current time (formatted once per second)."""
        now = self.service.clock.now()
        second = int(now.timestamp())
        if self._date[0] != second:
            self._date = (second, format_datetime(now, usegmt=True).encode())
        return self._date[1]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        key, found = self.service.answers.find(scope, scope.get(ROOT_KEY) or "")
        if found is not None:
            await send_kept(found, send)
            return
        await self.run(scope, receive, send, key)

    async def run(self, scope: Scope, receive: Receive, send: Send, key: Hashable | None) -> None:
        """Answer by the dispatch (through the kept answers' read when ``key`` is the
        request's key there: see :mod:`.answers`)."""
        answers = self.service.answers
        body = bytearray()
        # a request that announces no body (no Content-Length, no Transfer-Encoding, as
        # most reads) has none: the server is not asked for it (which would make it resume
        # reading from the socket once more for each request)
        reading = _has_body(scope)
        if reading:
            key = None  # answers to requests with a body are not kept
        while reading:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_BODY_BYTES + 1:
                break
            if not message.get("more_body"):
                break
        request = to_request(scope, bytes(body))
        if key is None:
            response, token = dispatch(self.service, request), None
        else:
            response, token = answers.read(request)
        if response.delay:
            await asyncio.sleep(response.delay)
        headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
        # the Date header comes from the service's clock, like every other time it shows
        headers.append((b"date", self.date()))
        if response.drop:
            headers.append((b"content-length", b"1024"))
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        length = response.head_length if request.method == "HEAD" else len(response.body)
        no_body = response.status in (204, 304)  # RFC 9110: no Content-Length on these
        if (
            not no_body
            and length is not None
            and not any(k == b"content-length" for k, _ in headers)
        ):
            headers.append((b"content-length", str(length).encode()))
        if token is not None:
            answer = Answer(response.status, list(headers), response.body, response.recorded)
            answers.keep(key, token, answer)
        await send({"type": "http.response.start", "status": response.status, "headers": headers})
        await send({"type": "http.response.body", "body": response.body})


async def send_kept(found: Answer, send: Send) -> None:
    """Send a kept answer (a copy of its headers: middleware such as CORS or compression
    may add to the list it is sent)."""
    await send({"type": "http.response.start", "status": 200, "headers": list(found.headers)})
    await send({"type": "http.response.body", "body": found.body})


_BODY_HEADERS = (b"content-length", b"transfer-encoding")


def _has_body(scope: Scope) -> bool:
    return any(name in _BODY_HEADERS and value != b"0" for name, value in scope.get("headers", ()))


def raw_paths(scope: Scope) -> tuple[str, str]:
    """The fake's mount point and the request's raw path below it (without the query)."""
    raw_path = scope.get("raw_path")
    path = raw_path.decode("latin-1") if raw_path else quote(scope.get("path", "/"))
    path = path.split("?", 1)[0]
    root = quote(scope.get(ROOT_KEY) or "").rstrip("/")
    if root and path.startswith(root):
        return root, path[len(root) :] or "/"
    return "", path


def to_request(scope: Scope, body: bytes) -> Request:
    headers: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        name = key.decode("latin-1").lower()
        text = value.decode("latin-1")
        headers[name] = f"{headers[name]}, {text}" if name in headers and name != "cookie" else text
    host = headers.get("host")
    if not host:
        server = scope.get("server") or ("localhost", 80)
        host = f"{server[0]}:{server[1]}"
    client = scope.get("client") or ("127.0.0.1", 0)
    root, path = raw_paths(scope)
    return Request(
        method=scope["method"].upper(),
        raw_path=path,
        query_string=scope.get("query_string", b"").decode("latin-1"),
        headers=headers,
        body=body,
        scheme=scope.get("scheme", "http"),
        host=host,
        client=client[0],
        root_path=root,
    )
