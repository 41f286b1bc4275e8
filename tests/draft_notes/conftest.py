"""Fixtures of the draft notes tests: the default scenario, fresh for each test,
checked for 500s after it."""

from __future__ import annotations

from support.default_service import svc  # noqa: F401  (the fixture)
from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)
