"""Offset and keyset pagination with the real service's headers and ``Link`` rules.

Offset: ``X-Per-Page``, ``X-Page``, ``X-Next-Page``, ``X-Prev-Page``, ``Link`` (prev,
next, first, last), ``X-Total``, ``X-Total-Pages``; totals and ``rel="last"`` are left
out past 10,000 rows; on endpoints that also offer keyset pagination, offsets past
50,000 answer 405. Keyset: only a ``Link`` with ``rel="next"``.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote_plus

from fakeservice.core.errors import MethodNotAllowed, ParamError
from fakeservice.core.store import Selection
from fakeservice.web.http import Response, dumps
from fakeservice.web.params import INT, Invalid, parse_integer

DEFAULT_PER_PAGE = 20
MAX_PER_PAGE = 100
COUNT_LIMIT = 10_000
MAX_OFFSET = 50_000
KEYSET_UNAVAILABLE = "Keyset pagination is not yet available for this type of request"


def page_params(raw: Mapping[str, Any]) -> tuple[tuple[int, int], list[str]]:
    """Read ``page`` and ``per_page`` as the service does; return them and any errors."""
    errors: list[str] = []
    page, per_page = 1, DEFAULT_PER_PAGE
    if "page" in raw:
        try:
            page = INT.coerce(raw["page"])
        except Invalid:
            errors.append("page is invalid")
    if "per_page" in raw:
        try:  # any size: a huge value caps to the maximum like any other large one
            per_page = max(min(parse_integer(raw["per_page"]), MAX_PER_PAGE), -1)
        except Invalid:
            errors.append("per_page is invalid")
        else:
            if per_page == 0:
                errors.append("per_page has a value not allowed")
    if per_page < 0:
        per_page = DEFAULT_PER_PAGE
    per_page = min(per_page, MAX_PER_PAGE)
    page = max(page, 1)
    return (page, per_page), errors


def to_query(params: Mapping[str, Any], prefix: str | None = None) -> str:
    """Encode nested params like the service's framework: keys sorted, ``a[]=``, ``h[k]=``."""
    pieces: list[str] = []
    for key in sorted(params, key=str):
        value = params[key]
        name = f"{prefix}[{key}]" if prefix else str(key)
        pieces.extend(_encode(name, value))
    return "&".join(p for p in pieces if p)


def _encode(name: str, value: Any) -> list[str]:
    if isinstance(value, dict):
        return [to_query(value, name)] if value else []
    if isinstance(value, list):
        out: list[str] = []
        for item in value:
            out.extend(_encode(f"{name}[]", item))
        return out
    return [f"{quote_plus(name)}={quote_plus(_scalar(value))}"]


def _scalar(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def link(url: str, params: Mapping[str, Any], rel: str) -> str:
    return f'<{url}?{to_query(params)}>; rel="{rel}"'


class Paginator:
    """Renders one page of a selection for a request."""

    def __init__(
        self,
        *,
        url: str,
        link_params: Mapping[str, Any],
        raw: Mapping[str, Any],
        keyset_kind: str | None,
    ) -> None:
        self.url = url
        self.link_params = dict(link_params)
        self.raw = raw
        self.keyset_kind = keyset_kind

    def offset(self, selection: Selection[Any], render: Callable[[Any], Any]) -> Response:
        (page, per_page), errors = page_params(self.raw)
        if errors:
            raise ParamError(errors)
        offset = (page - 1) * per_page
        if self.keyset_kind and page * per_page > MAX_OFFSET:
            kind = self.keyset_kind
            raise MethodNotAllowed(
                error=(
                    f"Offset pagination has a maximum allowed offset of {MAX_OFFSET} for requests "
                    f"that return objects of type {kind}. Remaining records can be retrieved "
                    "using keyset pagination."
                )
            )
        total = selection.count(cap=COUNT_LIMIT)
        counted = total <= COUNT_LIMIT
        rows = selection.slice(offset, offset + per_page + 1)
        has_next = len(rows) > per_page
        rows = rows[:per_page]
        total_pages = max(1, math.ceil(total / per_page)) if counted else None
        next_page = page + 1 if has_next else None
        prev_page = page - 1 if page > 1 and rows else None
        links = []
        base = dict(self.link_params, per_page=per_page)
        if prev_page:
            links.append(link(self.url, dict(base, page=prev_page), "prev"))
        if next_page:
            links.append(link(self.url, dict(base, page=next_page), "next"))
        links.append(link(self.url, dict(base, page=1), "first"))
        if counted:
            links.append(link(self.url, dict(base, page=total_pages), "last"))
        headers = [
            ("Content-Type", "application/json"),
            ("X-Per-Page", str(per_page)),
            ("X-Page", str(page)),
            ("X-Next-Page", str(next_page or "")),
            ("X-Prev-Page", str(prev_page or "")),
            ("Link", ", ".join(links)),
        ]
        if counted:
            headers += [("X-Total", str(total)), ("X-Total-Pages", str(total_pages))]
        return Response(200, headers, dumps([render(r) for r in rows]))

    def keyset(
        self,
        selection: Selection[Any],
        render: Callable[[Any], Any],
        *,
        next_params: Callable[[Any], dict[str, Any]],
        full_page_links: bool,
    ) -> Response:
        """One keyset page; ``next_params(last_record)`` gives the filter for the next one.

        ``full_page_links``: link whenever the page is full (projects) rather than only
        when another record exists (groups).
        """
        (_, per_page), errors = page_params(self.raw)
        if errors:
            raise ParamError(errors)
        rows = selection.slice(0, per_page + 1)
        more = len(rows) > per_page
        rows = rows[:per_page]
        headers = [("Content-Type", "application/json")]
        if rows and (more or (full_page_links and len(rows) == per_page)):
            params = dict(self.link_params, per_page=per_page, **next_params(rows[-1]))
            params.pop("page", None)
            headers.append(("Link", link(self.url, params, "next")))
        return Response(200, headers, dumps([render(r) for r in rows]))


def encode_cursor(values: Mapping[str, Any]) -> str:
    return base64.urlsafe_b64encode(dumps(dict(values))).decode().rstrip("=")


def decode_cursor(cursor: str) -> dict[str, Any] | None:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, TypeError):
        return None
    return data if isinstance(data, dict) else None
