"""Request matching shared by faults, rate limits and journal filters.

A :class:`RequestPattern` is a method (``"*"`` for any, or a comma-separated list) and a
path glob: ``*`` matches within one path segment, ``**`` matches across segments. A
pattern is tried against the raw path as sent (``%2F`` kept), the decoded path, and
both again without the ``/api/v4`` prefix, so ``/projects/*/pipeline`` matches
``/api/v4/projects/acme%2Fwebsite/pipeline``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote

import attrs

API_PREFIX = "/api/v4"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class PatternError(ValueError):
    """A method or path pattern that cannot be used."""


@lru_cache(maxsize=512)
def compile_glob(glob: str) -> re.Pattern[str]:
    """``/projects/*/jobs/**`` -> a regex; ``*`` stays in a segment, ``**`` crosses them."""
    if not glob.startswith("/"):
        raise PatternError(f"path pattern {glob!r} must start with '/'")
    out: list[str] = []
    for index, chunk in enumerate(glob.split("**")):
        if index:
            out.append(".*")
        out.append("[^/]*".join(re.escape(part) for part in chunk.split("*")))
    return re.compile("".join(out))


def parse_methods(method: str | list[str] | tuple[str, ...] | None) -> frozenset[str]:
    """``"*"`` / ``None`` -> empty set (any); ``"get, post"`` or a list -> upper-cased names."""
    if method is None:
        return frozenset()
    names = method.split(",") if isinstance(method, str) else list(method)
    wanted = {str(name).strip().upper() for name in names if str(name).strip()}
    if not wanted or "*" in wanted:
        return frozenset()
    unknown = sorted(wanted - METHODS)
    if unknown:
        raise PatternError(
            f"unknown method {', '.join(unknown)}; use one of {', '.join(sorted(METHODS))} or *"
        )
    return frozenset(wanted)


def path_forms(raw_path: str) -> tuple[str, ...]:
    """The forms of a request path a pattern is tried against."""
    forms = [raw_path]
    decoded = unquote(raw_path)
    if decoded != raw_path:
        forms.append(decoded)
    for form in list(forms):
        if form.startswith(API_PREFIX + "/"):
            forms.append(form[len(API_PREFIX) :])
    return tuple(forms)


@attrs.frozen
class RequestPattern:
    """Which requests a rule applies to."""

    path: str = "/**"
    method: str = "*"
    methods: frozenset[str] = attrs.field(init=False, eq=False, repr=False)
    regex: re.Pattern[str] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "methods", parse_methods(self.method))
        object.__setattr__(self, "regex", compile_glob(self.path))

    def matches(self, method: str, raw_path: str) -> bool:
        if self.methods and method.upper() not in self.methods:
            return False
        return any(self.regex.fullmatch(form) for form in path_forms(raw_path))

    def matches_path(self, raw_path: str) -> bool:
        return any(self.regex.fullmatch(form) for form in path_forms(raw_path))


def is_control_path(raw_path: str) -> bool:
    """Requests to the control plane are never faulted, throttled or journaled."""
    return raw_path == "/_fake" or raw_path.startswith("/_fake/")
