"""Expansion after ``include``: ``extends`` (hashes deep-merged), ``!reference`` tags and
the ``.pre`` / ``.post`` stages around a configured ``stages`` list.
"""

from __future__ import annotations

from typing import Any

from .errors import _ConfigError
from .records import Reference
from .values import _key, deep_merge
from .vocabulary import MAX_NESTING_LEVELS, POST_STAGE, PRE_STAGE


def _expand_extends(config: dict[str, Any]) -> dict[str, Any]:
    """Resolve ``extends`` on every top-level hash, in document order (the service's errors)."""
    context = dict(config)
    done: set[str] = set()

    def extend(key: str, ancestors: tuple[str, ...]) -> Any:
        value = context[key]
        if key in done or not isinstance(value, dict) or "extends" not in value:
            return value
        raw = value["extends"]
        names = [_key(n) for n in (raw if isinstance(raw, list) else [] if raw is None else [raw])]
        unknown = [n for n in names if n not in context]
        if unknown:
            raise _ConfigError(f"{key}: unknown keys in `extends` ({', '.join(unknown)})")
        invalid = [n for n in names if not isinstance(context[n], dict)]
        if invalid:
            raise _ConfigError(f"{key}: invalid base hashes in `extends` ({', '.join(invalid)})")
        if len(ancestors) > MAX_NESTING_LEVELS:
            raise _ConfigError(f"{key}: nesting too deep in `extends`")
        if key in ancestors:
            raise _ConfigError(f"{key}: circular dependency detected in `extends`")
        merged: dict[str, Any] = {}
        for name in names:
            merged = deep_merge(merged, extend(name, (*ancestors, key)))
        context[key] = deep_merge(merged, value)
        done.add(key)
        return context[key]

    for key in list(context):
        extend(key, ())
    return context


def _resolve_references(config: dict[str, Any]) -> dict[str, Any]:
    def lookup(reference: Reference, chain: tuple[Reference, ...]) -> Any:
        if reference in chain or len(chain) > MAX_NESTING_LEVELS:
            raise _ConfigError(f"{reference} is part of a circular chain")
        node: Any = config
        for part in reference.path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            else:
                raise _ConfigError(f"{reference} could not be found")
        return resolve(node, (*chain, reference))

    def resolve(value: Any, chain: tuple[Reference, ...]) -> Any:
        if isinstance(value, Reference):
            return lookup(value, chain)
        if isinstance(value, dict):
            return {k: resolve(v, chain) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v, chain) for v in value]
        return value

    return resolve(config, ())


def _inject_edge_stages(config: dict[str, Any]) -> dict[str, Any]:
    stages = config.get("stages")
    if not isinstance(stages, list):
        return config
    edged = list(stages)
    if PRE_STAGE not in edged:
        edged.insert(0, PRE_STAGE)
    if POST_STAGE not in edged:
        edged.append(POST_STAGE)
    return {**config, "stages": edged}
