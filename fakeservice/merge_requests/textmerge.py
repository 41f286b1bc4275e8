"""A three-way merge of one file's lines, as git merges a file both sides changed.

Each side's changes against the base are hunks over base line ranges. Hunks of the two
sides that overlap or touch (no unchanged base line between them) conflict, unless they
are the same change; otherwise both sides' hunks apply. Binary content (a NUL byte)
merges only when one side left it as it was.
"""

from __future__ import annotations

from difflib import SequenceMatcher

Hunk = tuple[int, int, tuple[bytes, ...]]


def _lines(content: bytes) -> list[bytes]:
    return content.splitlines(keepends=True)


def _hunks(base: list[bytes], side: list[bytes]) -> list[Hunk]:
    matcher = SequenceMatcher(None, base, side, autojunk=False)
    return [
        (i1, i2, tuple(side[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _clash(first: Hunk, second: Hunk) -> bool:
    if first == second:
        return False
    return max(first[0], second[0]) <= min(first[1], second[1])


def merge_text(base: bytes, ours: bytes, theirs: bytes) -> bytes | None:
    """The merged content, or None on a conflict."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    if b"\0" in base + ours + theirs:
        return None
    base_lines = _lines(base)
    mine, yours = _hunks(base_lines, _lines(ours)), _hunks(base_lines, _lines(theirs))
    if any(_clash(a, b) for a in mine for b in yours):
        return None
    merged: list[bytes] = []
    position = 0
    for start, end, replacement in sorted(set(mine) | set(yours), key=lambda h: (h[0], h[1])):
        merged.extend(base_lines[position:start])
        merged.extend(replacement)
        position = max(position, end)
    merged.extend(base_lines[position:])
    return b"".join(merged)
