"""Blame: which commit introduced each line of a file, grouped into ranges."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

from fakeservice.core.errors import BadRequest, ParamError
from fakeservice.repository.engine.constants import MODE_DIR, MODE_SUBMODULE, Path
from fakeservice.repository.engine.paths import read_path
from fakeservice.repository.engine.reads import FileReads
from fakeservice.repository.engine.records import BlameRange
from fakeservice.repository.engine.text import split_lines


class Blame(FileReads):
    """Line attribution along the file's line of history."""

    def blame(
        self,
        ref: str,
        path: str,
        range_start: int | None = None,
        range_end: int | None = None,
    ) -> list[BlameRange]:
        """Line attribution of ``path`` at ``ref``, grouped into ranges of one commit.

        Bounds are 1-based and inclusive; each given bound must be > 0 (400
        ``range[start] does not have a valid value``), ``range_end`` must not be smaller
        than ``range_start`` (400), and an end past the last line is clamped.
        """
        start, end = check_range(range_start, range_end)
        commit = self._resolve_or_404(ref)
        self._file_entry(commit, path)
        parts = read_path(path)
        history = self._path_history(commit, parts)
        lines = split_lines(self._blob(history[0][1]))
        owners = self._attribute(history, lines)
        stop = len(lines) if end is None else min(end, len(lines))
        return group_ranges(owners, lines, start - 1, stop, self._info)

    def _path_history(self, commit: bytes, parts: Path) -> list[tuple[bytes, bytes]]:
        """(commit that wrote the version, blob id) of each version of a file, newest first."""
        history: list[tuple[bytes, bytes]] = []
        current: bytes | None = commit
        while current is not None:
            entry = self._entry(current, parts)
            if entry is None or entry[0] in (MODE_DIR, MODE_SUBMODULE):
                break
            writer = self._last_commit(current, parts)
            assert writer is not None
            history.append((writer, entry[1]))
            parents = self._graph(writer)[1]
            current = parents[0] if parents else None
        return history

    def _attribute(self, history: list[tuple[bytes, bytes]], lines: list[str]) -> list[bytes]:
        """For each final line, the commit that introduced it."""
        owners: list[bytes | None] = [None] * len(lines)
        pending: list[int | None] = list(range(len(lines)))
        current = lines
        for index, (writer, _blob) in enumerate(history):
            if index + 1 == len(history):
                older: list[str] = []
            else:
                older = split_lines(self._blob(history[index + 1][1]))
            passed: list[int | None] = [None] * len(older)
            kept = set()
            matcher = difflib.SequenceMatcher(None, older, current, autojunk=False)
            for a, b, size in matcher.get_matching_blocks():
                for k in range(size):
                    passed[a + k] = pending[b + k]
                    kept.add(b + k)
            for position, final in enumerate(pending):
                if final is not None and position not in kept:
                    owners[final] = writer
            pending, current = passed, older
            if all(p is None for p in pending):
                break
        return [owner or history[-1][0] for owner in owners]


def check_range(start: int | None, end: int | None) -> tuple[int, int | None]:
    if start is not None and start < 1:
        raise ParamError("range[start] does not have a valid value")
    if end is not None and end < 1:
        raise ParamError("range[end] does not have a valid value")
    if start is not None and end is not None and end < start:
        raise BadRequest("range[end] must be greater than or equal to range[start]")
    return start or 1, end


def group_ranges(
    owners: Sequence[bytes],
    lines: Sequence[str],
    first: int,
    stop: int,
    info: Any,
) -> list[BlameRange]:
    ranges: list[BlameRange] = []
    index = first
    while index < stop:
        owner = owners[index]
        end = index
        while end < stop and owners[end] == owner:
            end += 1
        ranges.append(BlameRange(info(owner), tuple(lines[index:end])))
        index = end
    return ranges
