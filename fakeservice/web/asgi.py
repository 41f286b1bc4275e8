"""The ASGI adapter: turns ASGI HTTP events into a :class:`Request` and back.

The raw path (``scope["raw_path"]``) is used so that ``%2F`` inside a path segment is
kept for routing. A response marked ``drop`` (fault injection) is cut short so the
client sees a broken connection; ``delay`` waits before answering.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from email.utils import format_datetime
from typing import TYPE_CHECKING, Any

from fakeservice.web.dispatch import dispatch
from fakeservice.web.http import MAX_BODY_BYTES, Request

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class AsgiApp:
    def __init__(self, service: FakeService) -> None:
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_BODY_BYTES + 1:
                break
            if not message.get("more_body"):
                break
        request = to_request(scope, bytes(body))
        response = dispatch(self.service, request)
        if response.delay:
            await asyncio.sleep(response.delay)
        headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
        # the Date header comes from the service's clock, like every other time it shows
        headers.append((b"date", format_datetime(self.service.clock.now(), usegmt=True).encode()))
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
        await send({"type": "http.response.start", "status": response.status, "headers": headers})
        await send({"type": "http.response.body", "body": response.body})


def to_request(scope: Scope, body: bytes) -> Request:
    headers: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        name = key.decode("latin-1").lower()
        text = value.decode("latin-1")
        headers[name] = f"{headers[name]}, {text}" if name in headers and name != "cookie" else text
    raw_path = scope.get("raw_path")
    path = raw_path.decode("latin-1") if raw_path else scope.get("path", "/")
    path = path.split("?", 1)[0]
    host = headers.get("host")
    if not host:
        server = scope.get("server") or ("localhost", 80)
        host = f"{server[0]}:{server[1]}"
    client = scope.get("client") or ("127.0.0.1", 0)
    return Request(
        method=scope["method"].upper(),
        raw_path=path,
        query_string=scope.get("query_string", b"").decode("latin-1"),
        headers=headers,
        body=body,
        scheme=scope.get("scheme", "http"),
        host=host,
        client=client[0],
    )
