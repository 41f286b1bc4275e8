"""What is wrong with a scenario: :class:`Problem` (where, line, message) and
:class:`ScenarioError`, raised by the loader and reported by ``fakeservice check``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import attrs
import yaml


@attrs.frozen
class Problem:
    """One problem: a plain ``message`` about the value at ``where`` (``users[2].tokens[0]``),
    on ``line`` (1-based, when the scenario came from YAML text) of ``file``."""

    message: str
    where: str = ""
    line: int | None = None
    file: str | None = None

    def __str__(self) -> str:
        place = ":".join(str(p) for p in (self.file, self.line) if p is not None)
        parts = [part for part in (place, self.where, self.message) if part]
        return ": ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "where": self.where, "message": self.message}


class ScenarioError(ValueError):
    """A scenario that cannot be loaded.

    ``problems`` lists ``(where, message)`` pairs; ``details`` the full :class:`Problem`
    records (with file and line when known).
    """

    def __init__(self, problems: Iterable[Problem | tuple[str, str]]) -> None:
        self.details: list[Problem] = [
            p if isinstance(p, Problem) else Problem(message=p[1], where=p[0]) for p in problems
        ]
        super().__init__("\n".join(str(p) for p in self.details))

    @property
    def problems(self) -> list[tuple[str, str]]:
        return [(p.where, p.message) for p in self.details]

    def as_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.details]


def line_of(node: yaml.Node | None) -> int | None:
    mark = getattr(node, "start_mark", None)
    return None if mark is None else mark.line + 1


_STEP = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")


def locate(root: yaml.Node | None, where: str) -> yaml.Node | None:
    """The deepest node on the path ``where`` (``projects[3].members[0]``) that exists."""
    node = root
    for found in _STEP.finditer(where):
        key, index = found.group(1), found.group(2)
        child: yaml.Node | None = None
        if key is not None and isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if getattr(k, "value", None) == key), None)
        elif index is not None and isinstance(node, yaml.SequenceNode):
            position = int(index)
            child = node.value[position] if position < len(node.value) else None
        if child is None:
            break
        node = child
    return node


def with_lines(
    problems: Iterable[Problem], root: yaml.Node | None, file: str | None
) -> list[Problem]:
    """Fill in the line (from ``root``) and file of problems that lack them."""
    out = []
    for problem in problems:
        line = problem.line if problem.line is not None else line_of(locate(root, problem.where))
        out.append(attrs.evolve(problem, line=line, file=problem.file or file))
    return out
