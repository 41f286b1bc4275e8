"""The ``header_prefix`` scenario key: the vendor header prefix a scenario serves with
(see :mod:`fakeservice.web.vendor_headers`; default ``X-Service-`` as in the spec)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.scenarios.schema import STR_TAG, Scalar
from fakeservice.web.vendor_headers import check_prefix, set_header_prefix

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

PREFIX = Scalar(
    "a header prefix ending in '-' (like X-Gitlab-)", frozenset({STR_TAG}), check_prefix
)


def load_header_prefix(service: FakeService, data: Mapping[str, Any]) -> None:
    set_header_prefix(service.store, data["header_prefix"])


def register(found: Sections) -> None:
    """Declare this module's scenario keys."""
    found.register_section(
        "header_prefix",
        load_header_prefix,
        schema=PREFIX,
        doc="the prefix of the vendor headers (default `X-Service-`, as in the spec; "
        "`X-Gitlab-` for clients written against the real service)",
    )
