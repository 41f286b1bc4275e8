"""Fixtures of the runners tests: the default scenario, in process and served (see
support.default_service), every service checked for 500s."""

from __future__ import annotations

from support.default_service import live, served, svc  # noqa: F401  (fixtures)
from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)
