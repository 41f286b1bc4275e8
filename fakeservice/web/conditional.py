"""Conditional request headers: ``If-Unmodified-Since`` on deletes answers 412 when the
record changed after the given instant, as the real service does."""

from __future__ import annotations

import datetime as dt
from email.utils import parsedate_to_datetime

from fakeservice.core.clock import parse_iso
from fakeservice.core.errors import PreconditionFailed
from fakeservice.web.http import Request


def require_unmodified_since(request: Request, last_modified: dt.datetime) -> None:
    """412 when ``If-Unmodified-Since`` is older than the record's last change (a header
    that does not parse as an HTTP or ISO 8601 date is ignored, as by the real service)."""
    header = request.header("if-unmodified-since")
    if not header:
        return
    try:
        since = parsedate_to_datetime(header)
    except (TypeError, ValueError, IndexError):
        try:
            since = parse_iso(header)
        except ValueError:
            return
    if since.tzinfo is None:
        since = since.replace(tzinfo=dt.UTC)
    if last_modified > since:
        raise PreconditionFailed()
