"""Loading ``.gitlab-ci.yml`` text: the safe loader (no timestamps, ``!reference``, unknown
tags ignored) and the service's (Psych) wording for YAML syntax errors.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .records import Reference
from .values import _key
from .vocabulary import MAX_YAML_DEPTH, MAX_YAML_NODES

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """Safe loader: no timestamps (they stay strings), ``!reference``, unknown tags ignored,
    and plain keys written as Ruby symbols (``:test_job:``) read as their names."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Any:
        node.value = [(_symbol_key(key), value) for key, value in node.value]
        return super().construct_mapping(node, deep=deep)


def _symbol_key(key: yaml.Node) -> yaml.Node:
    """A plain scalar key ``:name`` is the Ruby symbol ``name`` (Psych's reading)."""
    if (
        isinstance(key, yaml.ScalarNode)
        and not key.style
        and key.value.startswith(":")
        and len(key.value) > 1
    ):
        return yaml.ScalarNode(key.tag, key.value[1:], key.start_mark, key.end_mark)
    return key


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_reference(loader: Any, node: yaml.Node) -> Reference:
    if not isinstance(node, yaml.SequenceNode):
        raise yaml.constructor.ConstructorError(
            None, None, "!reference needs a sequence", node.start_mark
        )
    return Reference(tuple(_key(item) for item in loader.construct_sequence(node, deep=True)))


def _construct_untagged(loader: Any, _suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


_Loader.add_constructor("!reference", _construct_reference)
_Loader.add_multi_constructor("!", _construct_untagged)

_PY_PROBLEMS: tuple[tuple[str, str], ...] = (
    ("mapping values are not allowed here", "mapping values are not allowed in this context"),
    ("expected ',' or ']'", "did not find expected ',' or ']'"),
    ("expected ',' or '}'", "did not find expected ',' or '}'"),
    ("expected '<document start>'", "did not find expected <document start>"),
    (
        "expected alphabetic or numeric character",
        "did not find expected alphabetic or numeric character",
    ),
)


def _load_yaml(content: str) -> Any:
    """The first YAML document of ``content`` (later documents are ignored, as Psych does)."""
    documents = yaml.load_all(content, Loader=_Loader)
    try:
        return next(iter(documents), None)
    finally:
        documents.close()


def _too_big(data: Any) -> bool:
    """Whether loaded YAML nests deeper than ``MAX_YAML_DEPTH`` or, counting every alias
    again, holds more than ``MAX_YAML_NODES`` values (the service's deep-size guard, which
    also stops self-referencing aliases and alias bombs). Iterative: no recursion limit."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if depth > MAX_YAML_DEPTH or seen > MAX_YAML_NODES:
            return True
        if isinstance(value, dict):
            stack.extend((child, depth + 1) for pair in value.items() for child in pair)
        elif isinstance(value, list):
            stack.extend((child, depth + 1) for child in value)
    return False


def _yaml_error_text(exc: yaml.YAMLError, content: str) -> str:
    """The service's (Psych) wording for a YAML error: ``(<unknown>): ... at line L column C``."""
    if isinstance(exc, yaml.MarkedYAMLError):
        problem = exc.problem or ""
        context = exc.context
        mark = exc.context_mark if context and exc.context_mark else exc.problem_mark
        if problem.startswith("found undefined alias"):
            return f"Unknown alias: {_alias_at(content, mark)}"
        problem = _libyaml_problem(problem, context)
        text = " ".join(part for part in (problem, context) if part)
        if mark is not None:
            return f"(<unknown>): {text} at line {mark.line + 1} column {mark.column + 1}"
        return f"(<unknown>): {text}"
    if isinstance(exc, yaml.reader.ReaderError):
        line = content.count("\n", 0, exc.position) + 1
        column = exc.position - (content.rfind("\n", 0, exc.position) + 1) + 1
        return f"(<unknown>): control characters are not allowed at line {line} column {column}"
    return f"(<unknown>): {exc}"


def _libyaml_problem(problem: str, context: str | None) -> str:
    """Translate pure-Python PyYAML wording into libyaml's (no-op under libyaml)."""
    if problem.startswith("expected <block end>"):
        if context == "while parsing a block collection":
            return "did not find expected '-' indicator"
        return "did not find expected key"
    if problem.startswith("found character") and problem.endswith("that cannot start any token"):
        return "found character that cannot start any token"
    for prefix, replacement in _PY_PROBLEMS:
        if problem.startswith(prefix):
            return replacement
    return problem


def _alias_at(content: str, mark: Any) -> str:
    if mark is None:
        return ""
    lines = content.splitlines()
    line = lines[mark.line] if mark.line < len(lines) else ""
    found = re.match(r"\*?([^\s,\]\}]+)", line[mark.column :])
    return found.group(1) if found else ""
