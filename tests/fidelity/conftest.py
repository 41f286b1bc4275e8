"""Fixtures of the fidelity tests (issue 12): every service handed out is checked for 500s."""

from __future__ import annotations

from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)
