"""History: commit walks, ancestry, merge bases and the last commit that changed a path."""

from __future__ import annotations

import datetime as dt
import heapq
import itertools
from collections.abc import Iterable, Iterator

from fakeservice.repository import lastchange
from fakeservice.repository.engine.constants import MODE_DIR, Entry, Path
from fakeservice.repository.engine.paths import read_path
from fakeservice.repository.engine.records import CommitInfo
from fakeservice.repository.engine.refs import Refs


class History(Refs):
    """Walks over the commit graph; path histories read from the commits' change trees."""

    def _init_caches(self) -> None:
        super()._init_caches()
        self._marks: dict[bytes, lastchange.Node] = {}  # commit -> its change tree

    def _same_parent(self, commit: bytes, parts: Path, entry: Entry | None) -> bytes | None:
        """The first parent in which ``parts`` is unchanged (git's TREESAME), or None."""
        tree, parents = self._graph(commit)
        for parent in parents:
            parent_tree = self._graph(parent)[0]
            if parent_tree == tree or self._lookup(parent_tree, parts) == entry:
                return parent
        return None

    def _last_commit(self, start: bytes, parts: Path) -> bytes | None:
        """The last commit at or before ``start`` that changed ``parts`` (None if absent).

        Read from the commits' change trees (:mod:`fakeservice.repository.lastchange`):
        the cost is the path's depth, not the history's length."""
        return lastchange.last_commit(self._mark(start), parts)

    def _mark(self, sha: bytes) -> lastchange.Node:
        """The change tree of commit ``sha``, built (with any unbuilt ancestors', oldest
        first) when missing: after a push, or once after a repository was unpickled."""
        marks = self._marks
        found = marks.get(sha)
        if found is not None:
            return found
        pending = [(sha, False)]
        while pending:
            current, ready = pending.pop()
            if current in marks:
                continue
            parents = [p for p in self._graph(current)[1] if p in self._store.raw]
            if ready:
                marks[current] = self._build_mark(current, parents)
                continue
            pending.append((current, True))
            pending.extend((p, False) for p in parents if p not in marks)
        return marks[sha]

    def _build_mark(self, sha: bytes, parents: list[bytes]) -> lastchange.Node:
        root = (MODE_DIR, self._graph(sha)[0])
        below = [((MODE_DIR, self._graph(p)[0]), self._marks[p]) for p in parents]
        reads = lastchange.Reads(self._tree, self._tree_get, self._tree_diff)
        return lastchange.build(sha, root, below, reads)

    def _walk(
        self, starts: Iterable[bytes], parts: Path | None, first_parent: bool
    ) -> Iterator[CommitInfo]:
        """Commits reachable from ``starts``, newest first by committer date."""
        order = itertools.count()
        heap: list[tuple[float, int, bytes]] = []
        seen: set[bytes] = set()

        def push(sha: bytes) -> None:
            if sha not in seen:
                seen.add(sha)
                stamp = self._info(sha).committed_date.timestamp()
                heapq.heappush(heap, (-stamp, next(order), sha))

        for start in starts:
            push(start)
        while heap:
            sha = heapq.heappop(heap)[2]
            info = self._info(sha)
            parents = [p.encode() for p in info.parent_ids]
            if first_parent:
                parents = parents[:1]
            if parts is not None:
                entry = self._lookup(info.tree_id.encode(), parts)
                same = next((p for p in parents if self._entry(p, parts) == entry), None)
                if same is not None:
                    # straight to the commit that last changed the path (same result as
                    # skipping each unchanged commit, without walking them)
                    jump = self._last_commit(same, parts) if entry is not None else None
                    push(jump or same)
                    continue
                if entry is None and not parents:
                    continue
            yield info
            for parent in parents:
                push(parent)

    def commits(
        self,
        ref: str | None = None,
        *,
        path: str | None = None,
        since: dt.datetime | None = None,
        until: dt.datetime | None = None,
        first_parent: bool = False,
        all_refs: bool = False,
    ) -> list[CommitInfo]:
        """History newest first. ``ref`` defaults to HEAD; unknown ref: 404 ``Commit``.

        ``path`` keeps the commits that changed it; ``since``/``until`` bound the
        committer date (inclusive); ``all_refs`` walks every branch and tag instead.
        """
        if all_refs:
            starts = [s for s in (self._peel(v) for v in self._refs.values()) if s is not None]
        else:
            starts = [self._resolve_or_404(ref or "HEAD")]
        parts = read_path(path) if path else None
        found = []
        for info in self._walk(starts, parts, first_parent):
            if since is not None and info.committed_date < since:
                continue
            if until is not None and info.committed_date > until:
                continue
            found.append(info)
        return found

    def get_commit(self, ref: str) -> CommitInfo:
        """The commit a ref names; 404 ``Commit Not Found`` otherwise."""
        return self._info(self._resolve_or_404(ref))

    def find_commit(self, ref: str | None) -> CommitInfo | None:
        found = self._resolve(ref)
        return self._commit(found) if found is not None else None

    def last_commit_id(self, ref: str, path: str) -> str | None:
        """The last commit (at or before ``ref``) that changed ``path``; None if absent."""
        found = self._last_commit(self._resolve_or_404(ref), read_path(path))
        return found.decode() if found is not None else None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when ``ancestor`` is reachable from ``descendant`` (or equal to it)."""
        target = self._resolve_or_404(ancestor)
        return target in self._ancestors([self._resolve_or_404(descendant)])

    def _ancestors(self, starts: Iterable[bytes]) -> set[bytes]:
        """``starts`` and every commit reachable from them."""
        seen = set(starts)
        stack = list(seen)
        while stack:
            for parent in self._graph(stack.pop())[1]:
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return seen

    def merge_base(self, first: str, second: str) -> str | None:
        """The best common ancestor of two refs (the newest if several), or None."""
        ours = self._ancestors([self._resolve_or_404(first)])
        common = [c for c in self._ancestors([self._resolve_or_404(second)]) if c in ours]
        if not common:
            return None
        parents = [p for c in common for p in self._graph(c)[1]]
        redundant = self._ancestors(parents)
        best = [c for c in common if c not in redundant] or common
        best.sort(key=lambda c: (self._info(c).committed_date.timestamp(), c), reverse=True)
        return best[0].decode()
