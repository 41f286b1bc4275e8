"""Explicit state machines as data: a table of (state, event) -> state, plus effects.

Every status field of the service (jobs, pipelines, exports, imports, storage moves,
epics) changes only through :meth:`Machine.fire`. The tables are introspectable
(:meth:`Machine.transitions`, :meth:`Machine.to_mermaid`) so docs can be generated.
Transition listeners (:meth:`Machine.add_listener`, shared by every machine) see each
transition after its effects (the live dashboard).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

import attrs

from fakeservice.core.errors import IllegalTransition
from fakeservice.core.tracking import TrackedMap

Effect = Callable[[Any, str, str, dict[str, Any]], None]
# (machine, record, old state, new state, event)
TransitionListener = Callable[["Machine", Any, str, str, str], None]


@attrs.frozen
class Transition:
    event: str
    sources: frozenset[str]
    target: str


class Machine:
    """A named transition table over records with a status attribute.

    ``effects`` maps a target state (or ``"*"``) to callables run after the status
    changed, with ``(record, old_state, event, context)``.
    """

    listeners: ClassVar[list[TransitionListener]] = []

    @classmethod
    def add_listener(cls, listener: TransitionListener) -> None:
        """Call ``listener(machine, record, old, new, event)`` after every transition."""
        cls.listeners.append(listener)

    @classmethod
    def remove_listener(cls, listener: TransitionListener) -> None:
        if listener in cls.listeners:
            cls.listeners.remove(listener)

    def __init__(
        self,
        name: str,
        states: Iterable[str],
        transitions: Iterable[tuple[str, Iterable[str] | str, str]],
        *,
        attribute: str = "status",
        effects: Mapping[str, Iterable[Effect]] | None = None,
    ) -> None:
        self.name = name
        self.states: tuple[str, ...] = tuple(states)
        self.attribute = attribute
        self._table: dict[tuple[str, str], str] = {}
        self._transitions: list[Transition] = []
        for event, sources, target in transitions:
            srcs = frozenset([sources] if isinstance(sources, str) else sources)
            unknown = (srcs | {target}) - set(self.states)
            if unknown:
                raise ValueError(f"{name}: unknown states {sorted(unknown)} in {event}")
            self._transitions.append(Transition(event, srcs, target))
            for src in srcs:
                self._table[(src, event)] = target
        self._effects: dict[str, list[Effect]] = {
            key: list(value) for key, value in (effects or {}).items()
        }

    def events(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.event for t in self._transitions))

    def transitions(self) -> list[Transition]:
        return list(self._transitions)

    def target(self, state: str, event: str) -> str | None:
        return self._table.get((state, event))

    def can(self, record: Any, event: str) -> bool:
        return (getattr(record, self.attribute), event) in self._table

    def fire(self, record: Any, event: str, **context: Any) -> str:
        """Apply ``event`` to ``record``; raise :class:`IllegalTransition` when not allowed."""
        old = getattr(record, self.attribute)
        new = self._table.get((old, event))
        if new is None:
            raise IllegalTransition(self.name, old, event)
        TrackedMap.writes += 1  # a change in place, counted as a store write
        setattr(record, self.attribute, new)
        for effect in self._effects.get(new, ()):
            effect(record, old, event, context)
        for effect in self._effects.get("*", ()):
            effect(record, old, event, context)
        for listener in tuple(Machine.listeners):
            listener(self, record, old, new, event)
        return new

    def to_mermaid(self) -> str:
        lines = ["stateDiagram-v2"]
        for t in self._transitions:
            for src in sorted(t.sources):
                lines.append(f"    {src} --> {t.target}: {t.event}")
        return "\n".join(lines)
