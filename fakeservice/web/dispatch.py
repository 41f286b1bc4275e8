"""Synchronous request dispatch: route, decode, authenticate, validate, call, render.

This is the whole HTTP behaviour of the service as one function of a :class:`Request`;
the ASGI adapter and the in-process transports only translate to and from it. Any
exception that is not a domain error renders as the service's 500 and is kept on
``service.server_errors`` so tests can fail loudly on it.
"""

from __future__ import annotations

import re
import sys
import traceback
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import (
    ApiError,
    BadRequest,
    IllegalTransition,
    MethodNotAllowed,
    ParamError,
    PayloadTooLarge,
    RouteNotFound,
)
from fakeservice.web.auth import Caller, authorize, identify
from fakeservice.web.context import Context
from fakeservice.web.http import (
    MAX_BODY_BYTES,
    BodyError,
    Request,
    Response,
    dumps,
    json_response,
    parse_body,
    parse_query,
)
from fakeservice.web.pagination import page_params
from fakeservice.web.params import validate
from fakeservice.web.routing import Match
from fakeservice.web.vendor_headers import SPEC_PREFIX, header_prefix, rename

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


def render_error(error: ApiError) -> Response:
    headers: list[tuple[str, str]] = []
    if error.content_type:
        headers.append(("Content-Type", error.content_type))
    headers.extend(error.headers.items())
    if error.status == 304:
        return Response(304, headers, b"")
    if isinstance(error.body, bytes):
        body = error.body
    elif isinstance(error.body, str) and error.content_type != "application/json":
        body = error.body.encode()
    else:
        body = dumps(error.body)
    return Response(error.status, headers, body)


_HEADER_BREAKS = re.compile(r"[\r\n\0]")


def _header_safe(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """CR, LF and NUL never reach a response header (no header injection or splitting).
    One search over all the values; a new list either way (a handler's may be shared)."""
    if not _HEADER_BREAKS.search("".join(value for _, value in headers)):
        return list(headers)
    return [(name, _HEADER_BREAKS.sub("", value)) for name, value in headers]


def dispatch(service: FakeService, request: Request) -> Response:
    """Answer one request. Never raises."""
    caller = Caller()
    try:
        early = service.before_request(request)
        if early is not None:
            response = early
        else:
            response, caller = _dispatch(service, request)
    except ApiError as error:
        response = render_error(error)
    except IllegalTransition as error:
        response = render_error(BadRequest(str(error)))
    except Exception as error:  # a bug: answer like the service, and keep it for tests
        service.server_errors.append(error)
        traceback.print_exc(file=sys.stderr)
        response = json_response({"message": "500 Internal Server Error"}, 500)
    response.headers = _header_safe(response.headers)
    prefix = header_prefix(service.store)
    if prefix != SPEC_PREFIX:
        response.headers = rename(response.headers, prefix)
    if request.method == "HEAD":
        response.head_length = len(response.body)
        response.body = b""
    try:
        service.after_request(request, response, caller)
    except Exception as error:  # a bug in a hook must not cost the client its answer
        service.server_errors.append(error)
        traceback.print_exc(file=sys.stderr)
    return response


def _dispatch(service: FakeService, request: Request) -> tuple[Response, Caller]:
    if len(request.body) > MAX_BODY_BYTES:
        raise PayloadTooLarge()
    found = service.router.resolve(request.method, request.raw_path)
    if found is None:
        raise RouteNotFound()
    if isinstance(found, list):
        raise MethodNotAllowed(found)
    match: Match = found
    endpoint = match.endpoint
    query = parse_query(request.query_string)
    try:
        body = parse_body(request)
    except BodyError as error:
        raise ParamError(str(error)) from error
    raw: dict[str, Any] = {**query, **body, **match.path_params}
    store = service.store
    with store.lock:
        now = service.clock.now()
        caller = identify(store, request, raw, endpoint, now)
        caller = authorize(store, caller, request, raw, endpoint)
        errors: list[str] = []
        try:
            params = validate(endpoint.params, raw, endpoint.constraints)
        except ParamError as error:
            errors.extend(error.messages)
            params = {}
        if endpoint.paginated:
            errors.extend(page_params(raw)[1])
        if errors:
            raise ParamError(errors)
        ctx = Context(service, request, endpoint, match.path_params, raw, params, caller)
        result = endpoint.handler(ctx)
        if isinstance(result, Response):
            return result, caller
        if result is None:
            status = endpoint.status or (204 if endpoint.method == "DELETE" else 200)
            return Response(status, [], b""), caller
        return json_response(result, endpoint.default_status), caller
