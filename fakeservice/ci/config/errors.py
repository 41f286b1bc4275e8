"""Exceptions of the CI configuration engine."""

from __future__ import annotations

from collections.abc import Sequence


class PlanError(Exception):
    """A pipeline cannot be created; ``errors`` are the service's messages."""

    def __init__(self, errors: Sequence[str]) -> None:
        self.errors: list[str] = list(errors)
        super().__init__(self.errors[0] if self.errors else "")


class ExpressionError(ValueError):
    """A ``rules:if`` / ``only:variables`` expression that does not parse."""


class _ConfigError(Exception):
    """One error that stops the expansion (include, extends, reference)."""
