"""Which commit last changed each path: an index built when a commit is made.

For every commit the repository keeps a *change tree*: a :data:`Node` per path, holding
the last commit (at or before that commit, following git's history simplification:
the first parent in which the path is unchanged) that changed the path, and for a
directory the nodes of its entries (a persistent map,
:mod:`fakeservice.repository.engine.hashtrie`). A commit's tree shares every node of
its first parent for the entries it did not change, and the map of a changed directory
is its first parent's with only the changed names replaced, so building one costs the
changed paths' depth (the changed names found by comparing the trees' chunks, see
:meth:`Reads.diff`), and reading the last commit of any path costs its depth, whatever
the length of the history or the width of the directories.

Merges follow the same rule per path: an entry unchanged in its first parent reuses
that parent's node whole; an entry unchanged only in a later parent takes that
parent's last commit and is looked at entry by entry below (an earlier parent may be
unchanged for a deeper path).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from fakeservice.repository.engine import hashtrie

Entry = tuple[int, bytes]  # (mode, hex sha)
Node = tuple[bytes, Any]  # (last commit, the entries' nodes of a directory (a trie) or None)

MODE_DIR = 0o040000


class Reads(NamedTuple):
    """How the index reads trees: all entries, one entry, and the differing names."""

    entries: Callable[[bytes], Mapping[bytes, Entry]]
    get: Callable[[bytes, bytes], Entry | None]
    diff: Callable[[bytes | None, bytes | None], Mapping[bytes, tuple[Entry | None, Entry | None]]]


Parents = Sequence[tuple[Entry | None, Node | None]]
ReadTree = Callable[[bytes], Mapping[bytes, Entry]]


def whole_tree_reads(read_tree: ReadTree) -> Reads:
    """:class:`Reads` over a function giving a tree's every entry (small trees, tests)."""

    def diff(
        old: bytes | None, new: bytes | None
    ) -> dict[bytes, tuple[Entry | None, Entry | None]]:
        a = read_tree(old) if old else {}
        b = read_tree(new) if new else {}
        return {n: (a.get(n), b.get(n)) for n in a.keys() | b.keys() if a.get(n) != b.get(n)}

    return Reads(read_tree, lambda sha, name: read_tree(sha).get(name), diff)


def build(commit: bytes, entry: Entry, parents: Parents, reads: Reads | ReadTree) -> Node:
    """The node of ``entry`` (a commit's root tree, or a path below it) in ``commit``,
    from the same path's entry and node in each parent (in parent order)."""
    if not isinstance(reads, Reads):
        reads = whole_tree_reads(reads)
    last = commit
    for position, (parent_entry, parent_node) in enumerate(parents):
        if parent_entry == entry and parent_node is not None:
            if position == 0 or entry[0] != MODE_DIR:
                return parent_node
            last = parent_node[0]
            break
    if entry[0] != MODE_DIR:
        return (last, None)
    first_entry, first_node = parents[0] if parents else (None, None)
    if (
        first_entry is not None
        and first_entry[0] == MODE_DIR
        and first_node is not None
        and first_node[1] is not None
    ):
        # unchanged names keep the first parent's nodes: only the changed ones are built
        changes = reads.diff(first_entry[1], entry[1])
        updates = {
            name: None if new is None else build(commit, new, _below(parents, name, reads), reads)
            for name, (_old, new) in changes.items()
        }
        return (last, hashtrie.updated(first_node[1], updates))
    children = {
        name: build(commit, child, _below(parents, name, reads), reads)
        for name, child in reads.entries(entry[1]).items()
    }
    return (last, hashtrie.build(children))


def _below(parents: Parents, name: bytes, reads: Reads) -> Parents:
    """Each parent's entry and node for ``name`` below the directory being built."""
    return [
        (
            reads.get(p_entry[1], name) if p_entry is not None and p_entry[0] == MODE_DIR else None,
            hashtrie.get(p_node[1], name) if p_node is not None and p_node[1] is not None else None,
        )
        for p_entry, p_node in parents
    ]


def last_commit(node: Node, parts: Sequence[bytes]) -> bytes | None:
    """The last commit that changed ``parts`` below ``node``; None if there is no such path."""
    for name in parts:
        children = node[1]
        if children is None:
            return None
        found = hashtrie.get(children, name)
        if found is None:
            return None
        node = found
    return node[0]
