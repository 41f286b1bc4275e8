"""A persistent map by name: the children of a directory in the change trees.

A map of up to :data:`LEAF_MAX` names is a plain ``dict``; a larger one is a tuple of 32
sub-maps chosen by five bits of the name's CRC-32 (stable across processes, so pickles
stay valid), level by level. :func:`updated` copies only the path down to the changed
names (a few hundred bytes), so two versions of a wide directory share everything
else. Maps are never changed in place.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Mapping
from typing import Any

LEAF_MAX = 32
_FANOUT_BITS = 5
_FANOUT = 1 << _FANOUT_BITS
_MAX_LEVEL = 32 // _FANOUT_BITS  # past it the CRC has no bits left: leaves just grow

Trie = Mapping[bytes, Any] | tuple[Any, ...]


def _slot(name: bytes, level: int) -> int:
    return (zlib.crc32(name) >> (_FANOUT_BITS * level)) & (_FANOUT - 1)


def get(trie: Trie, name: bytes) -> Any:
    level = 0
    while isinstance(trie, tuple):
        trie = trie[_slot(name, level)]
        level += 1
    return trie.get(name)


def build(items: Mapping[bytes, Any], level: int = 0) -> Trie:
    """The map holding ``items`` (taken as is when small)."""
    if len(items) <= LEAF_MAX or level >= _MAX_LEVEL:
        return items
    buckets: list[dict[bytes, Any]] = [{} for _ in range(_FANOUT)]
    for name, value in items.items():
        buckets[_slot(name, level)][name] = value
    return tuple(build(bucket, level + 1) for bucket in buckets)


def updated(trie: Trie, changes: Mapping[bytes, Any], level: int = 0) -> Trie:
    """A new map: ``trie`` with ``changes`` applied (a ``None`` value removes the name)."""
    if not isinstance(trie, tuple):
        fresh = dict(trie)
        for name, value in changes.items():
            if value is None:
                fresh.pop(name, None)
            else:
                fresh[name] = value
        return build(fresh, level)
    groups: dict[int, dict[bytes, Any]] = {}
    for name, value in changes.items():
        groups.setdefault(_slot(name, level), {})[name] = value
    nodes = list(trie)
    for slot, group in groups.items():
        nodes[slot] = updated(nodes[slot], group, level + 1)
    return tuple(nodes)


def items(trie: Trie) -> Iterator[tuple[bytes, Any]]:
    if isinstance(trie, tuple):
        for node in trie:
            yield from items(node)
    else:
        yield from trie.items()
