"""Snapshot bytes kept in memory for a long time, compressed.

A service keeps the bytes of its initial state for as long as it lives (to reset to
it, and for the templates stamped from it). Pickled records repeat the same field
layout and values record after record, so they shrink several times under a fast
compression level. :func:`packed` marks what it compresses; :func:`unpacked` takes
either form, so everything that reads snapshot bytes accepts both.
"""

from __future__ import annotations

import zlib

MAGIC = b"FSZ1"
LEVEL = 1


def packed(data: bytes) -> bytes:
    """``data`` compressed, with the marker :func:`unpacked` recognises."""
    return MAGIC + zlib.compress(data, LEVEL)


def unpacked(data: bytes) -> bytes:
    """The original bytes of a :func:`packed` blob; any other bytes unchanged."""
    if data[: len(MAGIC)] == MAGIC:
        return zlib.decompress(memoryview(data)[len(MAGIC) :])
    return data
