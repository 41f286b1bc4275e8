"""Replay variables: ``save`` takes values out of an answer, ``${name}`` puts them back.

Expressions: ``status``; ``json`` (the whole body) or ``json.a.b[0].c``; ``headers.Name``
(case-insensitive); ``link.next`` (a URL from the ``Link`` header: prev, next, first,
last). A string that is exactly ``${name}`` becomes the saved value with its type (an
id stays an integer); inside longer text it is inserted as text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fakeservice.web.http import Response

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_STEP = re.compile(r"\.([^.\[\]]+)|\[(-?\d+)\]")
_LINK = re.compile(r'<([^>]*)>\s*;\s*rel="([^"]+)"')


class VariableError(ValueError):
    """An unknown variable or an expression that finds nothing."""


def substitute(value: Any, variables: dict[str, Any]) -> Any:
    if isinstance(value, str):
        whole = _VAR.fullmatch(value)
        if whole:
            return _lookup(whole.group(1), variables)
        return _VAR.sub(lambda m: _text(_lookup(m.group(1), variables)), value)
    if isinstance(value, list):
        return [substitute(item, variables) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, variables) for key, item in value.items()}
    return value


def _lookup(name: str, variables: dict[str, Any]) -> Any:
    if name not in variables:
        raise VariableError(f"variable ${{{name}}} is not set (no earlier step saved it)")
    return variables[name]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def links(header: str | None) -> dict[str, str]:
    return {rel: url for url, rel in _LINK.findall(header or "")}


def extract(expression: str, response: Response) -> Any:
    """The value ``expression`` names in ``response``."""
    head, _, rest = expression.strip().partition(".")
    if head == "status" and not rest:
        return response.status
    if head == "headers" and rest:
        found = response.header(rest)
        if found is None:
            raise VariableError(f"{expression}: the answer has no {rest} header")
        return found
    if head == "link" and rest:
        found = links(response.header("Link")).get(rest)
        if found is None:
            raise VariableError(f'{expression}: the Link header has no rel="{rest}"')
        return found
    if head.startswith("json"):
        try:
            data = json.loads(response.body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise VariableError(f"{expression}: the answer is not JSON") from exc
        return _walk(data, expression.strip()[len("json") :], expression)
    raise VariableError(f"{expression}: use status, json[.path], headers.<Name> or link.<rel>")


def _walk(data: Any, path: str, expression: str) -> Any:
    position = 0
    for found in _STEP.finditer(path):
        if found.start() != position:
            break
        position = found.end()
        key, index = found.group(1), found.group(2)
        if key is not None and isinstance(data, dict) and key in data:
            data = data[key]
        elif index is not None and isinstance(data, list) and -len(data) <= int(index) < len(data):
            data = data[int(index)]
        else:
            raise VariableError(f"{expression}: nothing at {found.group(0)!r}")
    if position != len(path):
        raise VariableError(f"{expression}: cannot read {path[position:]!r}")
    return data
