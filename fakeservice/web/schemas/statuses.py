"""The statuses an operation answers: derived from its declaration, its handler and what
it was seen to answer (``observed.json``).

From the declaration: the success status (201 for a POST, 204 for a DELETE without a
body), 400 when it has parameters, pagination or a body, 401 and 403 when it reads
credentials (a bad token, a blocked user, a refused sudo), 404 for path parameters and
identities, 413 for a body over the limit, 429 for the API's rate limits. From the
handler's own source: 304 (conditional GET), 405, 409, 412 (``If-Unmodified-Since``),
422 and 202. Fault injection (any status, on any route) is a test device, not an answer
of the operation, and is not listed.
"""

from __future__ import annotations

import inspect
from functools import cache

from fakeservice.web.routing import API_PREFIX, NO_AUTH, Endpoint
from fakeservice.web.schemas import observed

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})

# Names in a handler's source that mean it can answer a status.
_SOURCE_STATUSES: dict[str, int] = {
    "NotModified": 304,
    "MethodNotAllowed": 405,
    "Conflict": 409,
    "require_unmodified_since": 412,
    "PreconditionFailed": 412,
    "Unprocessable": 422,
    "status=202": 202,
}


@cache
def _source_statuses(handler: object) -> frozenset[int]:
    try:
        source = inspect.getsource(handler)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return frozenset()
    return frozenset(status for name, status in _SOURCE_STATUSES.items() if name in source)


def success_statuses(endpoint: Endpoint) -> set[int]:
    """The 2xx/304 statuses: the ones seen, else the declared default."""
    seen = {
        s
        for s in observed(endpoint.method, endpoint.prefix + endpoint.pattern).get("statuses", [])
        if s < 400
    }
    if seen:
        return seen
    if endpoint.method == "DELETE" and endpoint.status is None:
        return {204}
    return {endpoint.default_status}


def answered(endpoint: Endpoint) -> list[int]:
    """Every status the operation can answer, sorted."""
    key_statuses = observed(endpoint.method, endpoint.prefix + endpoint.pattern).get("statuses", [])
    codes = success_statuses(endpoint) | {s for s in key_statuses if s < 500}
    codes |= _source_statuses(endpoint.handler)
    if endpoint.params or endpoint.paginated or endpoint.method in BODY_METHODS:
        codes.add(400)
    if endpoint.auth != NO_AUTH:
        codes |= {401, 403, 404}
    if endpoint.path_names:
        codes.add(404)
    if endpoint.method in BODY_METHODS:
        codes.add(413)
    if endpoint.prefix == API_PREFIX:
        codes.add(429)
    return sorted(codes)
