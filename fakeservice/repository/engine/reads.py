"""File reads: a file's content and metadata, raw blobs, existence and tree listings."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator

from fakeservice.core.errors import NotFound
from fakeservice.repository.engine.constants import MODE_DIR, MODE_EXEC, MODE_SUBMODULE, Entry
from fakeservice.repository.engine.history import History
from fakeservice.repository.engine.paths import join_path, read_path
from fakeservice.repository.engine.records import FileInfo, TreeEntry
from fakeservice.repository.engine.text import entry_type, mode_text


class FileReads(History):
    """Reading files and trees at a ref."""

    def _file_entry(self, commit: bytes, path: str) -> Entry:
        parts = read_path(path)
        entry = self._entry(commit, parts) if parts else None
        if entry is None or entry[0] in (MODE_DIR, MODE_SUBMODULE):
            raise NotFound("File")
        return entry

    def read_file(self, ref: str, path: str) -> FileInfo:
        """The file at ``path`` in ``ref``. 404 ``Commit`` for an unknown ref, 404 ``File``."""
        commit = self._resolve_or_404(ref)
        mode, sha = self._file_entry(commit, path)
        content = self._blob(sha)
        last = self._last_commit(commit, read_path(path))
        return FileInfo(
            file_name=[s for s in path.split("/") if s not in ("", ".")][-1],
            file_path=path,
            size=len(content),
            encoding="base64",
            content=base64.b64encode(content).decode("ascii"),
            content_sha256=hashlib.sha256(content).hexdigest(),
            ref=ref,
            blob_id=sha.decode(),
            commit_id=commit.decode(),
            last_commit_id=(last or commit).decode(),
            execute_filemode=mode == MODE_EXEC,
        )

    def raw(self, ref: str | None, path: str) -> bytes:
        """Raw content; ``ref`` defaults to HEAD. 404 ``Commit`` or 404 ``File``."""
        commit = self._resolve_or_404(ref or "HEAD")
        return self._blob(self._file_entry(commit, path)[1])

    def exists(self, ref: str | None, path: str) -> bool:
        """Whether a file (not a directory) exists at ``path`` in ``ref``."""
        commit = self._resolve(ref or "HEAD")
        if commit is None:
            return False
        entry = self._entry(commit, read_path(path)) if read_path(path) else None
        return entry is not None and entry[0] not in (MODE_DIR, MODE_SUBMODULE)

    def tree(
        self, ref: str | None = None, path: str = "", recursive: bool = False
    ) -> list[TreeEntry]:
        """Entries under ``path``: trees, then blobs, then submodules. 404 ``Tree``."""
        commit = self._resolve_or_404(ref or "HEAD", "Tree")
        parts = read_path(path)
        entry = self._entry(commit, parts)
        if entry is None or entry[0] != MODE_DIR:
            raise NotFound("Tree")
        found = list(self._list_tree(entry[1], b"/".join(parts), recursive))
        rank = {"tree": 0, "blob": 1, "commit": 2}
        return sorted(found, key=lambda e: rank[e.type])

    def _list_tree(self, tree: bytes, prefix: bytes, recursive: bool) -> Iterator[TreeEntry]:
        for name, (mode, sha) in self._tree(tree).items():
            full = join_path(prefix, name)
            yield TreeEntry(
                id=sha.decode(),
                name=name.decode("utf-8", "replace"),
                type=entry_type(mode),
                path=full.decode("utf-8", "replace"),
                mode=mode_text(mode),
            )
            if recursive and mode == MODE_DIR:
                yield from self._list_tree(sha, full, recursive)
