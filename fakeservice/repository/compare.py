"""Comparing refs: the commits one ref has that another lacks, the diff between them, and
the merge base of several refs (helpers over :class:`~fakeservice.repository.git.Repository`'s
public functions).

As the service computes it: the commits of a comparison are those reachable from ``to``
and not from ``from``, oldest first; the diff is ``from``'s tree against ``to``'s with
``straight``, else the merge base's against ``to``'s (``from...to``).
"""

from __future__ import annotations

import heapq
import itertools

import attrs

from fakeservice.repository.git import CommitInfo, DiffEntry, Repository


@attrs.frozen
class Comparison:
    commits: list[CommitInfo]
    diffs: list[DiffEntry]
    same: bool


def compare(repo: Repository, from_sha: str, to_sha: str, *, straight: bool) -> Comparison:
    """Compare two commits (full shas, both in ``repo``)."""
    commits, base = _paint(repo, from_sha, to_sha)
    commits.reverse()
    # unrelated histories have no merge base: their trees are compared directly
    old = from_sha if straight or base is None else base
    return Comparison(commits, repo.compare(old, to_sha), from_sha == to_sha)


_TO, _FROM = 1, 2


def _paint(repo: Repository, from_sha: str, to_sha: str) -> tuple[list[CommitInfo], str | None]:
    """The commits reachable from ``to`` and not from ``from`` (newest first), and the
    newest commit reachable from both, walking back from both by committer date only as
    far as the two histories differ (git's paint-down; the work grows with the commits
    between, not with the whole history, when commit dates follow the graph)."""
    flags: dict[str, int] = {to_sha: _TO}
    flags[from_sha] = flags.get(from_sha, 0) | _FROM
    order = itertools.count()
    heap: list[tuple[float, int, int, str]] = []
    infos: dict[str, CommitInfo] = {}

    def push(sha: str) -> None:
        info = infos.get(sha) or infos.setdefault(sha, repo.get_commit(sha))
        # at equal dates, commits reached from ``from`` go first: an ancestor of ``from``
        # is then known as one before it could be taken for a commit of ``to`` alone
        first = 0 if flags[sha] & _FROM else 1
        heapq.heappush(heap, (-info.committed_date.timestamp(), first, next(order), sha))

    for sha in dict.fromkeys((to_sha, from_sha)):
        push(sha)
    done: set[str] = set()
    only_to: list[CommitInfo] = []
    redundant: set[str] = set()  # reached from both through a commit reached from both
    while any(flags[sha] == _TO for *_, sha in heap):
        sha = heapq.heappop(heap)[-1]
        if sha in done:
            continue
        done.add(sha)
        mark = flags[sha]
        if mark == _TO:
            only_to.append(infos[sha])
        for parent in infos[sha].parent_ids:
            flags[parent] = flags.get(parent, 0) | mark
            if mark == _TO | _FROM:
                redundant.add(parent)
            if parent not in done:
                push(parent)
    both = [sha for sha, mark in flags.items() if mark == _TO | _FROM and sha not in redundant]
    both.sort(key=lambda sha: infos[sha].committed_date, reverse=True)
    return only_to, both[0] if both else None


def merge_base_of(repo: Repository, shas: list[str]) -> str | None:
    """The merge base of every commit in ``shas`` (folded pairwise), or None."""
    base: str | None = shas[0]
    for sha in shas[1:]:
        if base is None:
            return None
        base = repo.merge_base(base, sha)
    return base
