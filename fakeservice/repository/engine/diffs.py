"""Diffs: changed paths between two trees (renames paired by blob), unified diffs, stats."""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Iterator

from fakeservice.repository.engine.constants import MODE_DIR, Entry
from fakeservice.repository.engine.history import History
from fakeservice.repository.engine.paths import join_path
from fakeservice.repository.engine.records import CommitStats, DiffEntry
from fakeservice.repository.engine.text import mode_text


class Diffs(History):
    """A commit's changes, two refs compared, and a commit's line stats."""

    def diff(self, ref: str) -> list[DiffEntry]:
        """Changes a commit made against its first parent (all files for a root commit)."""
        info = self.get_commit(ref)
        parent = self._info(info.parent_ids[0].encode()).tree_id if info.parent_ids else None
        return self._diff_trees(parent, info.tree_id)

    def compare(self, from_ref: str, to_ref: str) -> list[DiffEntry]:
        """Changes between two refs' trees (``from`` -> ``to``). 404 ``Commit``."""
        old = self.get_commit(from_ref).tree_id
        new = self.get_commit(to_ref).tree_id
        return self._diff_trees(old, new)

    def commit_stats(self, ref: str) -> CommitStats:
        """Lines added and removed by a commit against its first parent."""
        additions = deletions = 0
        for entry in self.diff(ref):
            for line in entry.diff.splitlines():
                if line.startswith("+"):
                    additions += 1
                elif line.startswith("-"):
                    deletions += 1
        return CommitStats(additions, deletions)

    def _diff_trees(self, old: str | None, new: str | None) -> list[DiffEntry]:
        changes = list(
            self._tree_changes(old.encode() if old else None, new.encode() if new else None, b"")
        )
        added: dict[bytes, list[bytes]] = {}
        for path, before, after in changes:
            if before is None and after is not None:
                added.setdefault(after[1], []).append(path)
        renames: dict[bytes, tuple[bytes, Entry]] = {}
        for path, before, after in changes:
            if after is None and before is not None and added.get(before[1]):
                renames[added[before[1]].pop(0)] = (path, before)
        renamed_from = {source for source, _ in renames.values()}
        result = []
        for path, before, after in changes:
            if path in renamed_from:
                continue
            source, before = renames.get(path, (path, before))
            result.append(self._diff_entry(source, path, before, after))
        return result

    def _diff_entry(
        self, old_path: bytes, new_path: bytes, before: Entry | None, after: Entry | None
    ) -> DiffEntry:
        old = self._blob(before[1]) if before else b""
        new = self._blob(after[1]) if after else b""
        return DiffEntry(
            old_path=old_path.decode("utf-8", "replace"),
            new_path=new_path.decode("utf-8", "replace"),
            a_mode=mode_text(before[0] if before else None),
            b_mode=mode_text(after[0] if after else None),
            new_file=before is None,
            renamed_file=before is not None and after is not None and old_path != new_path,
            deleted_file=after is None,
            diff=unified_diff(old, new, old_path, new_path),
        )

    def _tree_changes(
        self, old: bytes | None, new: bytes | None, prefix: bytes
    ) -> Iterator[tuple[bytes, Entry | None, Entry | None]]:
        """(path, old entry, new entry) for each changed file, in path order."""
        changes = self._tree_diff(old, new)
        for name in sorted(changes):
            a, b = changes[name]
            path = join_path(prefix, name)
            a_dir = a is not None and a[0] == MODE_DIR
            b_dir = b is not None and b[0] == MODE_DIR
            if a_dir or b_dir:
                yield from self._tree_changes(
                    a[1] if a_dir else None, b[1] if b_dir else None, path
                )
            if (a is not None and not a_dir) or (b is not None and not b_dir):
                yield path, None if a_dir else a, None if b_dir else b


def unified_diff(old: bytes, new: bytes, old_path: bytes = b"", new_path: bytes = b"") -> str:
    """Unified diff hunks (no ``---``/``+++`` header) the way git prints them."""
    if b"\0" in old or b"\0" in new:
        if old == new:
            return ""
        a, b = old_path.decode("utf-8", "replace"), new_path.decode("utf-8", "replace")
        return f"Binary files a/{a} and b/{b} differ\n"
    before = keep_ends(old.decode("utf-8", "replace"))
    after = keep_ends(new.decode("utf-8", "replace"))
    out = []
    for line in itertools.islice(difflib.unified_diff(before, after, n=3), 2, None):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def keep_ends(text: str) -> list[str]:
    """Split on ``\\n`` only (as git does), keeping the terminators."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines
