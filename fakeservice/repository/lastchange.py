"""Which commit last changed each path: an index built when a commit is made.

For every commit the repository keeps a *change tree*: a :data:`Node` per path, holding
the last commit (at or before that commit, following git's history simplification:
the first parent in which the path is unchanged) that changed the path, and for a
directory the nodes of its entries. A commit's tree shares every node of its first
parent for the entries it did not change, so building one costs the changed paths'
depth (times their directories' width), and reading the last commit of any path costs
its depth, whatever the length of the history.

Merges follow the same rule per path: an entry unchanged in its first parent reuses
that parent's node whole; an entry unchanged only in a later parent takes that
parent's last commit and is looked at entry by entry below (an earlier parent may be
unchanged for a deeper path).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Entry = tuple[int, bytes]  # (mode, hex sha)
Node = tuple[bytes, dict[bytes, "Node"] | None]  # (last commit, entries of a directory)
ReadTree = Callable[[bytes], dict[bytes, Entry]]

MODE_DIR = 0o040000


def build(
    commit: bytes,
    entry: Entry,
    parents: Sequence[tuple[Entry | None, Node | None]],
    read_tree: ReadTree,
) -> Node:
    """The node of ``entry`` (a commit's root tree, or a path below it) in ``commit``,
    from the same path's entry and node in each parent (in parent order)."""
    last = commit
    for position, (parent_entry, parent_node) in enumerate(parents):
        if parent_entry == entry and parent_node is not None:
            if position == 0 or entry[0] != MODE_DIR:
                return parent_node
            last = parent_node[0]
            break
    if entry[0] != MODE_DIR:
        return (last, None)
    parent_trees = [
        (read_tree(p_entry[1]) if p_entry is not None and p_entry[0] == MODE_DIR else {}, p_node)
        for p_entry, p_node in parents
    ]
    children: dict[bytes, Node] = {}
    for name, child in read_tree(entry[1]).items():
        below = [
            (tree.get(name), node[1].get(name) if node is not None and node[1] else None)
            for tree, node in parent_trees
        ]
        children[name] = build(commit, child, below, read_tree)
    return (last, children)


def last_commit(node: Node, parts: Sequence[bytes]) -> bytes | None:
    """The last commit that changed ``parts`` below ``node``; None if there is no such path."""
    for name in parts:
        children = node[1]
        if children is None:
            return None
        found = children.get(name)
        if found is None:
            return None
        node = found
    return node[0]
