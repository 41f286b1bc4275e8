"""In-process transports: a ``requests`` adapter and ``httpx`` transports that call the
service's dispatch directly (no sockets, no threads, no event loop)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx
import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict
from urllib3.response import HTTPResponse

from fakeservice.web.http import Request, Response

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


def _to_request(method: str, url: str, headers: Any, body: bytes | None) -> Request:
    parts = urlsplit(url)
    return Request(
        method=method.upper(),
        raw_path=parts.path or "/",
        query_string=parts.query,
        headers={k.lower(): v for k, v in dict(headers).items()},
        body=body or b"",
        scheme=parts.scheme or "http",
        host=parts.netloc or "localhost",
    )


def _answer(service: FakeService, request: Request) -> Response:
    response = service.handle(request)
    if response.delay:
        time.sleep(response.delay)
    return response


class ServiceAdapter(BaseAdapter):
    """A ``requests`` adapter that dispatches to a :class:`FakeService` in-process."""

    def __init__(self, service: FakeService) -> None:
        super().__init__()
        self.service = service

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        body = request.body
        if hasattr(body, "read"):
            body = body.read()  # type: ignore[union-attr]
        if isinstance(body, str):
            body = body.encode()
        req = _to_request(request.method or "GET", request.url or "/", request.headers, body)  # type: ignore[arg-type]
        answer = _answer(self.service, req)
        if answer.drop:
            raise requests.ConnectionError(
                "Connection aborted by the fake (injected fault)", request=request
            )
        raw = HTTPResponse(
            body=answer.body,
            headers=answer.headers,
            status=answer.status,
            preload_content=False,
            decode_content=False,
        )
        response = requests.Response()
        response.status_code = answer.status
        response.headers = CaseInsensitiveDict(answer.headers)
        response.raw = raw
        response._content = answer.body
        response.encoding = "utf-8"
        response.url = request.url or ""
        response.request = request
        response.reason = _REASONS.get(answer.status, "")
        return response

    def close(self) -> None:
        return None


_REASONS = {200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict", 412: "Precondition Failed", 413: "Payload Too Large", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error"}  # fmt: skip


def requests_session(service: FakeService) -> requests.Session:
    """A ``requests.Session`` whose every request goes to ``service`` in-process."""
    session = requests.Session()
    adapter = ServiceAdapter(service)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class ServiceTransport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """An ``httpx`` transport (sync and async) that dispatches to the service in-process."""

    def __init__(self, service: FakeService) -> None:
        self.service = service

    def _answer(self, request: httpx.Request, body: bytes) -> httpx.Response:
        req = Request(
            method=request.method,
            raw_path=request.url.raw_path.decode("ascii").split("?", 1)[0],
            query_string=request.url.query.decode("ascii"),
            headers={k.lower(): v for k, v in request.headers.items()},
            body=body,
            scheme=request.url.scheme,
            host=request.headers.get("host", request.url.netloc.decode("ascii")),
        )
        answer = _answer(self.service, req)
        if answer.drop:
            raise httpx.RemoteProtocolError(
                "Connection dropped by the fake (injected fault)", request=request
            )
        return httpx.Response(
            answer.status, headers=answer.headers, content=answer.body, request=request
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self._answer(request, request.read())

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return self._answer(request, await request.aread())


def httpx_client(service: FakeService, **kw: Any) -> httpx.Client:
    kw.setdefault("base_url", service.base_url)
    return httpx.Client(transport=ServiceTransport(service), **kw)


def httpx_async_client(service: FakeService, **kw: Any) -> httpx.AsyncClient:
    kw.setdefault("base_url", service.base_url)
    return httpx.AsyncClient(transport=ServiceTransport(service), **kw)
