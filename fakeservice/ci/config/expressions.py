"""``rules:if`` / ``only:variables`` expressions: tokenizer, parser and evaluator."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import attrs

from .errors import ExpressionError

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<var>\$\w+)
    | (?P<str>"[^"]*"|'[^']*')
    | (?P<pat>/(?:\\.|[^/\\])+/[ismU]*)
    | (?P<null>null)\b
    | (?P<op>==|!=|=~|!~|&&|\|\|)
    | (?P<lp>\()
    | (?P<rp>\))
    )""",
    re.VERBOSE,
)


@attrs.frozen(slots=True)
class _Pattern:
    regex: re.Pattern[str]


def _compile_pattern(text: str) -> re.Pattern[str] | None:
    """``/body/flags`` as a Python regex, or None when it is not a valid pattern."""
    match = re.fullmatch(r"/(.*)/([ismU]*)", text, re.DOTALL)
    if not match:
        return None
    flags = 0
    for flag in match.group(2):
        flags |= {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "U": 0}[flag]
    try:
        return re.compile(match.group(1), flags)
    except re.error:
        return None


def _tokenize(source: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(source):
        if source[position:].strip() == "":
            break
        match = _TOKEN.match(source, position)
        if not match or match.end() == position:
            raise ExpressionError(f"invalid expression: {source}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


class _Parser:
    """Recursive descent: ``or := and ('||' and)*``, ``and := cmp ('&&' cmp)*``."""

    def __init__(self, source: str) -> None:
        self.tokens = _tokenize(source)
        self.position = 0

    def parse(self) -> tuple[Any, ...]:
        if not self.tokens:
            raise ExpressionError("empty expression")
        tree = self._or()
        if self.position != len(self.tokens):
            raise ExpressionError("unexpected token")
        return tree

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self) -> tuple[str, str]:
        token = self._peek()
        if token is None:
            raise ExpressionError("unexpected end of expression")
        self.position += 1
        return token

    def _or(self) -> tuple[Any, ...]:
        node = self._and()
        while self._peek() == ("op", "||"):
            self._take()
            node = ("||", node, self._and())
        return node

    def _and(self) -> tuple[Any, ...]:
        node = self._comparison()
        while self._peek() == ("op", "&&"):
            self._take()
            node = ("&&", node, self._comparison())
        return node

    def _comparison(self) -> tuple[Any, ...]:
        left = self._operand()
        token = self._peek()
        if token and token[0] == "op" and token[1] in ("==", "!=", "=~", "!~"):
            self._take()
            return (token[1], left, self._operand())
        return left

    def _operand(self) -> tuple[Any, ...]:
        kind, text = self._take()
        if kind == "lp":
            node = self._or()
            if self._take() != ("rp", ")"):
                raise ExpressionError("missing closing parenthesis")
            return node
        if kind == "var":
            return ("var", text[1:])
        if kind == "str":
            return ("str", text[1:-1])
        if kind == "null":
            return ("null",)
        if kind == "pat":
            regex = _compile_pattern(text)
            if regex is None:
                raise ExpressionError(f"invalid pattern {text}")
            return ("pat", regex)
        raise ExpressionError(f"unexpected {text}")


@functools.lru_cache(maxsize=1024)
def compile_expression(source: str) -> tuple[Any, ...]:
    """Parse a ``rules:if`` expression; raises :class:`ExpressionError`."""
    return _Parser(source).parse()


def _truthy(value: Any) -> bool:
    return value is not None and value is not False


def _evaluate(node: tuple[Any, ...], variables: Mapping[str, str]) -> Any:
    kind = node[0]
    if kind == "var":
        return variables.get(node[1])
    if kind == "str":
        return node[1]
    if kind == "null":
        return None
    if kind == "pat":
        return _Pattern(node[1])
    if kind == "&&":
        left = _evaluate(node[1], variables)
        return _evaluate(node[2], variables) if _truthy(left) else left
    if kind == "||":
        left = _evaluate(node[1], variables)
        return left if _truthy(left) else _evaluate(node[2], variables)
    left = _evaluate(node[1], variables)
    right = _evaluate(node[2], variables)
    if kind == "==":
        return _same(left, right)
    if kind == "!=":
        return not _same(left, right)
    regex = _as_regex(right)
    text = "" if left is None else str(left)
    if kind == "=~":
        return regex is not None and regex.search(text) is not None
    return regex is None or regex.search(text) is None


def _same(left: Any, right: Any) -> bool:
    if isinstance(left, _Pattern) or isinstance(right, _Pattern):
        return left == right
    return left == right


def _as_regex(value: Any) -> re.Pattern[str] | None:
    if isinstance(value, _Pattern):
        return value.regex
    if isinstance(value, str):
        return _compile_pattern(value)
    return None


def evaluate_expression(source: str, variables: Mapping[str, str]) -> bool:
    """Whether the expression holds for ``variables`` (a value must be present to count)."""
    result = _evaluate(compile_expression(source), variables)
    if result is None or result is False:
        return False
    if isinstance(result, str):
        return bool(result.strip())
    return True


def _valid_expression(source: Any) -> bool:
    if not isinstance(source, str):
        return False
    try:
        compile_expression(source)
    except ExpressionError:
        return False
    return True
