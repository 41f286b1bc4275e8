"""The vendor header prefix: the spec names the vendor headers ``X-Service-*`` (file
metadata, ...); clients written against the real service read the vendor's own prefix.

The prefix is a service setting kept in the store (so snapshots, resets and templates
carry it): ``FakeService(header_prefix=...)``, ``fakeservice serve --header-prefix`` or
the scenario key ``header_prefix``. Endpoints always emit the spec's names; dispatch
renames them on the way out with :func:`rename`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fakeservice.core.store import Store

SPEC_PREFIX = "X-Service-"
_KEY = "header_prefix"
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*-\Z")


class HeaderPrefixError(ValueError):
    """A prefix that cannot start a header name."""


def check_prefix(prefix: Any) -> str:
    """``prefix`` when it is a valid header-name start ending in ``-`` (``X-Gitlab-``)."""
    if not isinstance(prefix, str) or not _VALID.match(prefix):
        raise HeaderPrefixError(
            f"a header prefix is letters, digits and dashes ending in '-' "
            f"(like {SPEC_PREFIX!r}), not {prefix!r}"
        )
    return prefix


def header_prefix(store: Store) -> str:
    prefix: str = store.extras.get(_KEY, SPEC_PREFIX)
    return prefix


def set_header_prefix(store: Store, prefix: str) -> None:
    store.extras[_KEY] = check_prefix(prefix)


def rename(headers: Sequence[tuple[str, str]], prefix: str) -> list[tuple[str, str]]:
    """``headers`` with the spec's ``X-Service-`` prefix replaced by ``prefix``."""
    size = len(SPEC_PREFIX)
    return [
        (prefix + name[size:] if name[:size].lower() == SPEC_PREFIX.lower() else name, value)
        for name, value in headers
    ]
