"""Fixtures of the structure tests: no service they build may answer 500."""

from __future__ import annotations

from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)
