"""Small value helpers shared by the configuration stages: YAML keys as the service names
them, deep merge, Ruby's ``blank?``, type checks, scripts and scalars as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .vocabulary import MAX_NESTING_LEVELS


def _key(value: Any) -> str:
    """A YAML key as the service names it (``true`` not ``True``)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    return str(value)


def _stringify_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {_key(k): _stringify_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stringify_keys(v) for v in value]
    return value


def _plain(value: Any) -> Any:
    """Deep copy into plain dict/list so the YAML dumper never meets proxies or tuples."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Ruby's ``deep_merge``: hashes merge recursively, anything else is replaced."""
    merged = dict(base)
    for key, value in override.items():
        current = merged.get(key)
        if isinstance(current, dict) and isinstance(value, dict):
            merged[key] = deep_merge(current, value)
        else:
            merged[key] = value
    return merged


def _blank(value: Any) -> bool:
    """Ruby's ``blank?``: nil, false, whitespace-only strings, empty arrays and hashes."""
    if value is None or value is False:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | dict):
        return not value
    return False


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _nested_strings(value: Any, levels: int = MAX_NESTING_LEVELS) -> bool:
    """An array whose elements are strings or arrays of them, at most ``levels`` deep."""
    if not isinstance(value, list):
        return False
    for element in value:
        if isinstance(element, list) and levels > 1:
            if not _nested_strings(element, levels - 1):
                return False
        elif not isinstance(element, str):
            return False
    return True


def _nested_hashes(value: Any, levels: int = MAX_NESTING_LEVELS) -> bool:
    if not isinstance(value, list):
        return False
    for element in value:
        if isinstance(element, list) and levels > 1:
            if not _nested_hashes(element, levels - 1):
                return False
        elif not isinstance(element, dict):
            return False
    return True


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _commands(value: Any) -> tuple[str, ...]:
    """A script value (string or nested arrays of strings) as a flat tuple of lines."""
    if value is None:
        return ()
    return tuple(str(line) for line in _flatten(value))


def _scalar_text(value: Any) -> str:
    """A YAML scalar as the service turns it into a variable value."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)
