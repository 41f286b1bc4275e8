"""Large trees kept as shared chunks, so that a change to one entry costs a chunk.

A tree object's raw form is its entries (``<mode> <name>\\0<20-byte sha>``) one after
the other in git's order (a directory's name sorts as ``name/``). A tree of up to
:data:`CHUNK_MAX` entries is kept as those raw bytes. A larger one is a
:class:`ChunkedTree`: the same bytes cut between entries into chunks of
:data:`CHUNK_MIN` to :data:`CHUNK_MAX` entries, with each chunk's first sort key. Editing
a tree (:func:`edit`) rewrites only the chunks holding the changed names; the others are
the very same ``bytes`` objects in both versions, so versions share them in memory and
in pickles. The tree's id is the SHA-1 of ``tree <length>\\0`` and the chunks, streamed
(:func:`tree_id`); the joined raw bytes are made only when asked for (:meth:`raw`).
"""

from __future__ import annotations

import binascii
import bisect
import hashlib
import itertools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from dulwich.objects import parse_tree

from fakeservice.repository.engine.constants import Entry

CHUNK_MAX = 128
CHUNK_MIN = 32
_HALF = CHUNK_MAX // 2
_DIR_BIT, _TYPE_MASK = 0o040000, 0o170000

Item = tuple[bytes, bytes]  # (sort key, serialised entry)


class ChunkedTree:
    """A large tree: ``chunks`` (raw entries, in order) and each chunk's first sort key."""

    __slots__ = ("chunks", "keys")

    def __init__(self, chunks: tuple[bytes, ...], keys: tuple[bytes, ...]) -> None:
        self.chunks = chunks
        self.keys = keys

    def __reduce__(self) -> tuple[Any, ...]:
        return (ChunkedTree, (self.chunks, self.keys))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChunkedTree):
            return NotImplemented
        return self.chunks == other.chunks

    __hash__ = None  # type: ignore[assignment]

    def raw(self) -> bytes:
        """The tree object's raw bytes (made on demand, not kept)."""
        return b"".join(self.chunks)

    def lookup(self, name: bytes) -> Entry | None:
        """The entry called ``name``: looked for in the chunk where ``name`` would sort as a
        file and the one where it would sort as a directory."""
        seen: set[int] = set()
        for key in (name, name + b"/"):
            index = chunk_index(self.keys, key)
            if index in seen:
                continue
            seen.add(index)
            for found, mode, sha in parse_tree(self.chunks[index], 20):
                if found == name:
                    return (mode, sha)
        return None


TreeData = bytes | ChunkedTree


def chunk_index(keys: tuple[bytes, ...], key: bytes) -> int:
    """The chunk where an entry with sort key ``key`` is (or would go)."""
    return max(bisect.bisect_right(keys, key) - 1, 0)


def raw_of(data: TreeData) -> bytes:
    return data if isinstance(data, bytes) else data.raw()


def chunks_of(data: TreeData) -> tuple[bytes, ...]:
    if isinstance(data, bytes):
        return (data,) if data else ()
    return data.chunks


def entries(data: TreeData) -> Iterator[tuple[bytes, int, bytes]]:
    """(name, mode, hex sha) of every entry, in the tree's order."""
    for chunk in chunks_of(data):
        yield from parse_tree(chunk, 20)


def parsed(data: TreeData) -> dict[bytes, Entry]:
    return {name: (mode, sha) for name, mode, sha in entries(data)}


def tree_id(data: TreeData) -> bytes:
    """The tree's id: SHA-1 over the header and the chunks, without joining them."""
    chunks = chunks_of(data)
    digest = hashlib.sha1(b"tree %d\0" % sum(map(len, chunks)), usedforsecurity=False)
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest().encode("ascii")


def sort_key(name: bytes, mode: int) -> bytes:
    """Git's tree order: a directory sorts as if its name ended with ``/``."""
    return name + b"/" if mode & _TYPE_MASK == _DIR_BIT else name


def serialise(name: bytes, entry: Entry) -> bytes:
    return b"%04o %s\0%s" % (entry[0], name, binascii.unhexlify(entry[1]))


def split_items(chunk: bytes) -> list[Item]:
    """The entries of raw tree bytes, each with its sort key."""
    items: list[Item] = []
    position, size = 0, len(chunk)
    while position < size:
        space = chunk.index(b" ", position)
        nul = chunk.index(b"\0", space)
        end = nul + 21
        if end > size:
            raise ValueError("truncated tree entry")
        mode = int(chunk[position:space], 8)
        items.append((sort_key(chunk[space + 1 : nul], mode), chunk[position:end]))
        position = end
    return items


def pack(raw: bytes) -> TreeData:
    """Raw tree bytes as kept: the bytes themselves when small, else chunked. A tree that
    is not well formed or not in git's order (a push may hold one) is kept as it came."""
    if raw.count(b"\0") <= CHUNK_MAX:  # an upper bound on the entry count
        return raw
    try:
        items = split_items(raw)
    except ValueError:
        return raw
    ordered = all(a[0] < b[0] for a, b in itertools.pairwise(items))
    if len(items) <= CHUNK_MAX or not ordered:
        return raw
    return _assemble([_chunk(run) for run in _pieces(items)])


def edit(data: TreeData, removed: Iterable[bytes], put: Mapping[bytes, Entry]) -> TreeData:
    """``data`` without the ``removed`` names and with the ``put`` entries (b"" if empty).

    Only the chunks where a changed name sorts are rewritten; a rewritten chunk that
    grew past :data:`CHUNK_MAX` is cut in two, one that shrank under :data:`CHUNK_MIN`
    takes in its right-hand neighbour."""
    chunks = chunks_of(data) or (b"",)
    keys = data.keys if isinstance(data, ChunkedTree) else (b"",)
    changed = set(removed) | set(put)

    touched: dict[int, list[Item]] = {}
    for name in changed:
        for key in (name, name + b"/"):
            index = chunk_index(keys, key)
            if index not in touched:
                touched[index] = split_items(chunks[index])
    for index, items in touched.items():
        touched[index] = [item for item in items if _name_of(item[0]) not in changed]
    for name, entry in put.items():
        key = sort_key(name, entry[0])
        touched[chunk_index(keys, key)].append((key, serialise(name, entry)))
    out: list[Item] = []  # (first sort key, chunk)
    index = 0
    while index < len(chunks):
        if index not in touched:
            out.append((keys[index], chunks[index]))  # shared with the old version
            index += 1
            continue
        items = touched[index]
        index += 1
        while len(items) < CHUNK_MIN and index < len(chunks):
            items = items + (touched[index] if index in touched else split_items(chunks[index]))
            index += 1
        items.sort()
        out.extend(_chunk(run) for run in _pieces(items))
    return _assemble(out)


def _name_of(key: bytes) -> bytes:
    return key[:-1] if key.endswith(b"/") else key  # a name never holds a "/"


def _pieces(items: list[Item]) -> list[list[Item]]:
    """``items`` cut into runs of at most :data:`CHUNK_MAX` (halves when cut)."""
    if len(items) <= CHUNK_MAX:
        return [items] if items else []
    count = -(-len(items) // _HALF)
    size = -(-len(items) // count)
    return [items[start : start + size] for start in range(0, len(items), size)]


def _chunk(run: list[Item]) -> Item:
    return (run[0][0], b"".join(body for _, body in run))


def _assemble(chunks: list[Item]) -> TreeData:
    """The tree made of these (first sort key, chunk) pairs: bytes when one chunk."""
    if len(chunks) <= 1:
        return chunks[0][1] if chunks else b""
    return ChunkedTree(tuple(c for _, c in chunks), tuple(k for k, _ in chunks))
