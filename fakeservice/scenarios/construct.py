"""A scenario's data from its YAML node tree, built quickly.

PyYAML's safe constructor spends most of a big scenario's construction in its general
machinery (a constructor looked up per node, a generator per mapping and list). Almost
every node of a scenario is a plain mapping, a list or a string, so :func:`construct`
builds those itself and hands every other node (numbers, booleans, timestamps, merge
keys, other tags, keys that are not scalars) to the loader's own constructor. Both
share the loader's table of constructed nodes, so a node reached twice (a YAML alias)
is one object, as with ``construct_document``; containers are filled level by level
in document order, as there.

It is a fast path only: a caller that gets an exception from it asks
``construct_document`` of a fresh loader, whose outcome and wording stand.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import yaml

TAG = "tag:yaml.org,2002:"
STR, NULL, MAP, SEQ = TAG + "str", TAG + "null", TAG + "map", TAG + "seq"
SPECIAL_KEYS = frozenset({TAG + "merge", TAG + "value"})  # rewritten by flatten_mapping

Loader = yaml.SafeLoader | yaml.CSafeLoader


def construct(loader: Loader, root: yaml.Node) -> Any:
    """The data of ``root`` (what ``loader.construct_document(root)`` gives)."""
    made: dict[yaml.Node, Any] = loader.constructed_objects
    waiting: deque[tuple[yaml.Node, Any]] = deque()

    def value(node: yaml.Node) -> Any:
        if node in made:
            return made[node]
        kind, tag = type(node), node.tag
        if kind is yaml.ScalarNode:
            if tag == STR:
                return node.value
            if tag == NULL:
                return None
        elif kind is yaml.SequenceNode and tag == SEQ:
            made[node] = []
            waiting.append((node, made[node]))
            return made[node]
        elif kind is yaml.MappingNode and tag == MAP and _plain_keys(node):
            made[node] = {}
            waiting.append((node, made[node]))
            return made[node]
        return loader.construct_object(node, deep=True)

    try:
        data = value(root)
        while waiting:
            node, target = waiting.popleft()
            if type(target) is list:
                target.extend(value(child) for child in node.value)
            else:
                for key_node, value_node in node.value:
                    key = value(key_node)
                    target[key] = value(value_node)
        return data
    finally:
        loader.constructed_objects = {}
        loader.recursive_objects = {}


def _plain_keys(node: yaml.MappingNode) -> bool:
    """Whether every key is a scalar without a merge or value tag (the others are the
    safe constructor's: merged, rewritten or refused as unhashable)."""
    return all(
        type(key) is yaml.ScalarNode and key.tag not in SPECIAL_KEYS for key, _ in node.value
    )
