"""Endpoint declarations and raw-path routing.

Each area declares its endpoints on its own :class:`AreaRouter`, by convention named
``api`` in its routes modules (``api = AreaRouter("users")``, then
``@api.get("/projects/:id/jobs", ...)``): method, path pattern, parameters,
constraints, authentication rule, extra read scopes, job-token acceptance,
pagination kind and, for an answer that is not JSON, the media types it ``produces``.
Patterns use ``:name`` for one path segment (matched on the *raw* path, so ``%2F``
stays inside the segment) and ``*name`` for the rest of the path. A service's :class:`Router` is built from the routers of the areas it
is composed of (see :mod:`fakeservice.areas`), so two services in one process can serve
different endpoints. The router picks the most specific matching pattern; a path that
matches only under other methods answers 405 with ``Allow``. Literal segments win over parameters, segment by segment;
repeated slashes route as one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote

import attrs

from fakeservice.core.errors import MalformedString
from fakeservice.web.params import Constraint, Param

API_PREFIX = "/api/v4"

# Authentication rules.
PUBLIC = "public"  # anonymous callers allowed (they see public data only)
REQUIRED = "required"  # a signed-in caller is needed (401 otherwise)
ADMIN = "admin"  # an administrator is needed (401 anonymous, 403 otherwise)
NO_AUTH = "none"  # credentials are not read at all (control plane)

Handler = Callable[..., Any]
# (wildcards, segment kinds up to the first wildcard, parameters, -literal characters)
Rank = tuple[int, tuple[int, ...], int, int]


@attrs.frozen
class Endpoint:
    method: str
    pattern: str
    handler: Handler
    params: tuple[Param, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    auth: str = PUBLIC
    read_scopes: tuple[str, ...] = ()
    job_token: bool = False
    paginated: bool = False
    keyset: str | None = None  # "projects" or "groups": offset limit + keyset support
    status: int | None = None
    prefix: str = API_PREFIX
    summary: str = ""
    # The media types of a success answer that is not JSON (raw files, archives, git's
    # protocol, text): empty for a JSON answer (or no body: 204, HEAD).
    produces: tuple[str, ...] = ()
    regex: re.Pattern[str] = attrs.field(init=False, eq=False)
    path_names: tuple[str, ...] = attrs.field(init=False, eq=False)
    rank: Rank = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        regex, names, rank = compile_pattern(self.prefix + self.pattern)
        object.__setattr__(self, "regex", regex)
        object.__setattr__(self, "path_names", names)
        object.__setattr__(self, "rank", rank)

    @property
    def default_status(self) -> int:
        if self.status is not None:
            return self.status
        return 201 if self.method == "POST" else 200

    def match(self, raw_path: str) -> dict[str, str] | None:
        found = self.regex.fullmatch(raw_path)
        if found is None:
            return None
        try:
            return {
                name: unquote(value, errors="strict") for name, value in found.groupdict().items()
            }
        except UnicodeDecodeError as error:
            raise MalformedString() from error


_TOKEN = re.compile(r":(\w+)|\*(\w+)")
_SLASHES = re.compile(r"//+")


def compile_pattern(pattern: str) -> tuple[re.Pattern[str], tuple[str, ...], Rank]:
    parts: list[str] = []
    names: list[str] = []
    pos = 0
    singles = wilds = 0
    for found in _TOKEN.finditer(pattern):
        parts.append(re.escape(pattern[pos : found.start()]))
        if found.group(1):
            names.append(found.group(1))
            parts.append(f"(?P<{found.group(1)}>[^/]+)")
            singles += 1
        else:
            names.append(found.group(2))
            parts.append(f"(?P<{found.group(2)}>.+)")
            wilds += 1
        pos = found.end()
    parts.append(re.escape(pattern[pos:]))
    literal = len(_TOKEN.sub("", pattern))
    return re.compile("".join(parts)), tuple(names), (wilds, _kinds(pattern), singles, -literal)


def _kinds(pattern: str) -> tuple[int, ...]:
    """Each segment's kind up to the first wildcard: 0 literal, 1 parameter, 2 wildcard.

    Ranking on it first makes a literal segment win over a parameter at the same place
    (``/pipelines/latest`` over ``/pipelines/:pipeline_id``, ``/projects/import`` over
    ``/projects/:id``), as the real service routes."""
    kinds: list[int] = []
    for segment in pattern.split("/"):
        kind = 2 if segment.startswith("*") else 1 if ":" in segment else 0
        kinds.append(kind)
        if kind == 2:
            break
    return tuple(kinds)


class AreaRouter:
    """The endpoints one area declares, in declaration order."""

    def __init__(self, area: str) -> None:
        self.area = area
        self.endpoints: list[Endpoint] = []

    def __repr__(self) -> str:
        return f"AreaRouter({self.area!r}, {len(self.endpoints)} endpoints)"

    def route(
        self,
        method: str,
        pattern: str,
        *,
        params: Sequence[Param] = (),
        constraints: Sequence[Constraint] = (),
        auth: str = PUBLIC,
        read_scopes: Sequence[str] = (),
        job_token: bool = False,
        paginated: bool = False,
        keyset: str | None = None,
        status: int | None = None,
        prefix: str = API_PREFIX,
        summary: str = "",
        produces: Sequence[str] = (),
    ) -> Callable[[Handler], Handler]:
        def decorate(handler: Handler) -> Handler:
            self.endpoints.append(
                Endpoint(
                    method=method,
                    pattern=pattern,
                    handler=handler,
                    params=tuple(params),
                    constraints=tuple(constraints),
                    auth=auth,
                    read_scopes=tuple(read_scopes),
                    job_token=job_token,
                    paginated=paginated or keyset is not None,
                    keyset=keyset,
                    status=status,
                    prefix=prefix,
                    summary=summary or (handler.__doc__ or "").strip().split("\n")[0],
                    produces=tuple(produces),
                )
            )
            return handler

        return decorate

    def get(self, pattern: str, **kw: Any) -> Callable[[Handler], Handler]:
        return self.route("GET", pattern, **kw)

    def post(self, pattern: str, **kw: Any) -> Callable[[Handler], Handler]:
        return self.route("POST", pattern, **kw)

    def put(self, pattern: str, **kw: Any) -> Callable[[Handler], Handler]:
        return self.route("PUT", pattern, **kw)

    def delete(self, pattern: str, **kw: Any) -> Callable[[Handler], Handler]:
        return self.route("DELETE", pattern, **kw)

    def head(self, pattern: str, **kw: Any) -> Callable[[Handler], Handler]:
        return self.route("HEAD", pattern, **kw)

    def patch(self, pattern: str, **kw: Any) -> Callable[[Handler], Handler]:
        return self.route("PATCH", pattern, **kw)


def renamer(noun: str) -> Callable[[Handler], Handler]:
    """A decorator for handlers declared in a loop (one per resource kind): ``token`` in
    the function's name becomes ``noun`` (``list_tokens`` -> ``list_project_tokens``), so
    that each endpoint's OpenAPI operation id says what it serves."""

    def rename(handler: Handler) -> Handler:
        handler.__name__ = handler.__name__.replace("token", noun, 1)
        return handler

    return rename


@attrs.frozen
class Match:
    endpoint: Endpoint
    path_params: dict[str, str]


# How many (method, raw path) answers a router keeps (forgotten all at once when full).
RESOLVED_CAPACITY = 4096


class Router:
    """Matches a method and raw path against a service's endpoints, most specific pattern
    first (ties go to the endpoint declared first). The endpoints never change, so the
    answer for a method and raw path is kept and given again (with its own copy of the
    path parameters)."""

    def __init__(self, endpoints: Sequence[Endpoint]) -> None:
        self._resolved: dict[tuple[str, str], Match | list[str] | None] = {}
        self.endpoints: tuple[Endpoint, ...] = tuple(endpoints)
        ordered = sorted(enumerate(endpoints), key=lambda pair: (pair[1].rank, pair[0]))
        self._endpoints = [e for _, e in ordered]
        self._by_head: dict[str, list[Endpoint]] = {}
        for endpoint in self._endpoints:
            self._by_head.setdefault(_head(endpoint.prefix + endpoint.pattern), []).append(endpoint)

    def candidates(self, raw_path: str) -> list[tuple[Endpoint, dict[str, str]]]:
        pool = self._by_head.get(_head(raw_path), []) + self._by_head.get("", [])
        pool.sort(key=lambda e: e.rank)
        out = []
        for endpoint in pool:
            params = endpoint.match(raw_path)
            if params is not None:
                out.append((endpoint, params))
        return out

    def resolve(self, method: str, raw_path: str) -> Match | list[str] | None:
        """A match, or the allowed methods (for a 405), or None (for a 404).

        Repeated slashes are routed as one, as the real server's routing does."""
        key = (method, raw_path)
        try:
            known = self._resolved[key]
        except KeyError:
            known = self._resolve(method, raw_path)
            if len(self._resolved) >= RESOLVED_CAPACITY:
                self._resolved.clear()
            self._resolved[key] = known
        if isinstance(known, Match):
            return Match(known.endpoint, dict(known.path_params))
        return None if known is None else list(known)

    def _resolve(self, method: str, raw_path: str) -> Match | list[str] | None:
        found = self.candidates(_SLASHES.sub("/", raw_path))
        if not found:
            return None
        wanted = [method, "GET"] if method == "HEAD" else [method]
        for want in wanted:
            for endpoint, params in found:
                if endpoint.method == want:
                    return Match(endpoint, params)
        allowed = sorted(
            {e.method for e, _ in found}
            | ({"HEAD"} if any(e.method == "GET" for e, _ in found) else set())
        )
        return allowed


def _head(path: str) -> str:
    """The literal first two segments of a path (``/api/v4/projects`` -> ``/api/v4/projects``)."""
    segments = path.split("/")
    head = []
    for segment in segments[1:4]:
        if ":" in segment or "*" in segment:
            return ""
        head.append(segment)
    return "/" + "/".join(head)
