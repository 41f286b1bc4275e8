"""Comparing refs: the commits one ref has that another lacks, the diff between them, and
the merge base of several refs (helpers over :class:`~fakeservice.repository.git.Repository`'s
public functions).

As the service computes it: the commits of a comparison are those reachable from ``to``
and not from ``from``, oldest first; the diff is ``from``'s tree against ``to``'s with
``straight``, else the merge base's against ``to``'s (``from...to``).
"""

from __future__ import annotations

import attrs

from fakeservice.repository.git import CommitInfo, DiffEntry, Repository


@attrs.frozen
class Comparison:
    commits: list[CommitInfo]
    diffs: list[DiffEntry]
    same: bool


def compare(repo: Repository, from_sha: str, to_sha: str, *, straight: bool) -> Comparison:
    """Compare two commits (full shas, both in ``repo``)."""
    reachable = {info.id for info in repo.commits(from_sha)}
    commits = [info for info in repo.commits(to_sha) if info.id not in reachable]
    commits.reverse()
    base = from_sha if straight else repo.merge_base(from_sha, to_sha)
    # unrelated histories have no merge base: their trees are compared directly
    diffs = repo.compare(base or from_sha, to_sha)
    return Comparison(commits, diffs, from_sha == to_sha)


def merge_base_of(repo: Repository, shas: list[str]) -> str | None:
    """The merge base of every commit in ``shas`` (folded pairwise), or None."""
    base: str | None = shas[0]
    for sha in shas[1:]:
        if base is None:
            return None
        base = repo.merge_base(base, sha)
    return base
