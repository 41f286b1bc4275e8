"""An ordered, thread-safe list of numbered control-plane rules (faults, rate limits).

Rules get ids 1, 2, 3... in the order they are added; they can be removed one by one or
all at once, exported as the keyword arguments that add them again, and loaded back (ids
and counters starting afresh). A subclass validates and builds its rules in ``add`` (via
:meth:`RuleBook._append`) and may keep per-rule state, dropped in :meth:`RuleBook._forget`.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar


class Rule(Protocol):
    """What a rule book needs of its rules."""

    @property
    def id(self) -> int: ...

    def spec(self) -> dict[str, Any]: ...

    def to_json(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Rule)


class RuleBook(ABC, Generic[R]):
    """Numbered rules in the order they were added."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.rules: list[R] = []
        self._next_id = 0

    @abstractmethod
    def add(self, *args: Any, **kwargs: Any) -> R:
        """Validate and add a rule (built with :meth:`_append`)."""

    def _append(self, build: Callable[[int], R]) -> R:
        """Build the rule with the next id and append it."""
        with self._lock:
            self._next_id += 1
            rule = build(self._next_id)
            self.rules.append(rule)
        return rule

    def _forget(self, rule_id: int | None) -> None:
        """Drop the state kept for one rule (``None``: for every rule); the lock is held."""

    def remove(self, rule_id: int) -> bool:
        with self._lock:
            before = len(self.rules)
            self.rules = [r for r in self.rules if r.id != rule_id]
            self._forget(rule_id)
            return len(self.rules) != before

    def clear(self) -> None:
        with self._lock:
            self.rules = []
            self._forget(None)

    def export(self) -> list[dict[str, Any]]:
        return [rule.spec() for rule in self.rules]

    def load(self, specs: list[dict[str, Any]]) -> None:
        """Replace the rules with ``specs`` (as from :meth:`export`); counts start afresh."""
        self.clear()
        for spec in specs:
            self.add(**spec)
