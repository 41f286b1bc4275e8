"""What a merge request reads from and writes to its project's real git repository.

* diff refs: ``base_sha`` (merge base), ``start_sha`` (target head), ``head_sha``
  (source head); changes are the tree diff ``base_sha`` → ``head_sha``;
* commits: reachable from the source head but not from the target head;
* conflicts: a path both sides changed since the merge base whose line-by-line
  three-way merge fails (:mod:`.textmerge`: overlapping or touching hunks);
* merges: a merge commit with two parents (``merge``), a fast-forward (``ff``), or a
  squash commit (with ``squash``), all built with the repository's own commit code and
  recorded so that ``git clone`` and the ``REFS_MOVED`` listeners see them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import attrs

from fakeservice.core.errors import BadRequest
from fakeservice.merge_requests.textmerge import merge_text
from fakeservice.repository.git import HEADS, Action, DiffEntry, RefUpdate, Repository

SCRATCH = "fakeservice/merge-scratch"


@attrs.frozen
class Heads:
    source: str | None
    target: str | None
    base: str | None


def heads(repo: Repository, source_branch: str, target_branch: str) -> Heads:
    source = repo.branch(source_branch)
    return heads_at(repo, source.commit_id if source else None, target_branch)


def heads_at(repo: Repository, source: str | None, target_branch: str) -> Heads:
    """The heads with the source given as a commit (a fork's head fetched into ``repo``)."""
    target = repo.branch(target_branch)
    base = None
    if source is not None and target is not None:
        base = repo.merge_base(target.commit_id, source)
    return Heads(source, target.commit_id if target else None, base)


def changes(repo: Repository, base: str | None, head: str | None) -> list[DiffEntry]:
    if base is None or head is None:
        return []
    return repo.compare(base, head)


def _ids(repo: Repository, ref: str | None) -> list[str]:
    return [c.id for c in repo.commits(ref)] if ref else []


def commits_between(repo: Repository, target: str | None, source: str | None) -> list[str]:
    """Commit ids on the source and not on the target, newest first."""
    if source is None:
        return []
    excluded = set(_ids(repo, target))
    return [sha for sha in _ids(repo, source) if sha not in excluded]


def diverged_count(repo: Repository, target: str | None, source: str | None) -> int:
    """How many commits the target has that the source lacks."""
    return len(commits_between(repo, source, target))


def _content(repo: Repository, sha: str, path: str) -> bytes | None:
    return repo.raw(sha, path) if repo.exists(sha, path) else None


def merged_content(repo: Repository, found: Heads, path: str) -> bytes | None:
    """A path both sides changed, merged line by line; None on a conflict (including a
    side that deleted or added the file while the other changed it differently)."""
    assert found.base is not None and found.target is not None and found.source is not None
    base = _content(repo, found.base, path)
    ours = _content(repo, found.target, path)
    theirs = _content(repo, found.source, path)
    if ours == theirs:
        return ours
    if base is None or ours is None or theirs is None:
        return None
    return merge_text(base, ours, theirs)


def _both_changed(repo: Repository, found: Heads) -> set[str]:
    assert found.base is not None and found.target is not None
    return {_path(e) for e in changes(repo, found.base, found.target)}


def has_conflicts(repo: Repository, found: Heads) -> bool:
    if found.source is None or found.target is None or found.base is None:
        return found.source is not None and found.target is not None
    ours = _both_changed(repo, found)
    for entry in changes(repo, found.base, found.source):
        path = _path(entry)
        if path in ours and merged_content(repo, found, path) is None:
            return True
    return False


def _path(entry: DiffEntry) -> str:
    return entry.old_path if entry.deleted_file else entry.new_path


def _actions(repo: Repository, found: Heads, *, onto: str) -> list[Action]:
    """The source's changes since the merge base as actions on top of ``onto``."""
    out: list[Action] = []
    assert found.source is not None and found.base is not None
    ours = _both_changed(repo, found) if onto == found.target else set()
    for entry in changes(repo, found.base, found.source):
        if entry.deleted_file:
            if repo.exists(onto, entry.old_path):
                out.append(Action("delete", entry.old_path))
            continue
        content = repo.raw(found.source, entry.new_path)
        if entry.new_path in ours and not entry.renamed_file:
            content = merged_content(repo, found, entry.new_path) or content
        if entry.renamed_file and repo.exists(onto, entry.old_path):
            out.append(Action("move", entry.new_path, content, previous_path=entry.old_path))
        elif repo.exists(onto, entry.new_path):
            if repo.raw(onto, entry.new_path) != content:
                out.append(Action("update", entry.new_path, content))
        else:
            out.append(Action("create", entry.new_path, content))
    return out


@attrs.frozen
class Author:
    name: str
    email: str


def _tree_with(repo: Repository, found: Heads, author: Author, now: dt.datetime) -> str:
    """The tree of the target with the source's changes applied."""
    assert found.target is not None
    actions = _actions(repo, found, onto=found.target)
    if not actions:
        return repo.get_commit(found.target).tree_id
    repo.set_branch(SCRATCH, found.target)
    try:
        sha = repo.commit(
            SCRATCH,
            actions,
            message="scratch",
            author_name=author.name,
            author_email=author.email,
            when=now,
        )
        return repo.get_commit(sha).tree_id
    finally:
        repo.delete_branch(SCRATCH)


@attrs.frozen
class MergeResult:
    target_sha: str
    merge_commit_sha: str | None
    squash_commit_sha: str | None
    updates: tuple[RefUpdate, ...]


def merge(
    repo: Repository,
    found: Heads,
    target_branch: str,
    *,
    method: str,
    squash: bool,
    merge_message: str,
    squash_message: str,
    author: Author,
    now: dt.datetime,
) -> MergeResult:
    """Merge the source into the target branch; returns the new target head."""
    if found.source is None or found.target is None or found.base is None:
        raise BadRequest("Branch cannot be merged")
    old = found.target
    squash_sha: str | None = None
    head = found.source
    fast_forward = repo.is_ancestor(found.target, found.source)
    if squash:
        tree = _tree_with(repo, found, author, now)
        squash_sha = _commit(repo, tree, [found.target], squash_message, author, now)
        head = squash_sha
        fast_forward = True
    if method in ("ff", "rebase_merge") and not fast_forward:
        raise BadRequest("Branch cannot be merged")
    if method == "ff":
        new, merge_sha = head, None
    elif squash:
        merge_sha = _commit(
            repo, repo.get_commit(head).tree_id, [found.target, head], merge_message, author, now
        )
        new = merge_sha
    else:
        tree = _tree_with(repo, found, author, now)
        merge_sha = _commit(repo, tree, [found.target, found.source], merge_message, author, now)
        new = merge_sha
    repo.set_branch(target_branch, new)
    update = RefUpdate((HEADS.decode() + target_branch), old, new)
    return MergeResult(new, merge_sha, squash_sha, (update,))


def _commit(
    repo: Repository,
    tree: str,
    parents: Sequence[str],
    message: str,
    author: Author,
    now: dt.datetime,
) -> str:
    return repo.create_commit(
        tree,
        list(parents),
        message=message,
        author_name=author.name,
        author_email=author.email,
        when=now,
    )


def rebase(
    repo: Repository, found: Heads, source_branch: str, author: Author, now: dt.datetime
) -> RefUpdate | None:
    """Replay the source's changes as one commit per source commit on the target head
    (here: one commit carrying them all, keeping the last commit's message); None when
    the source already contains the target."""
    if found.source is None or found.target is None or found.base is None:
        raise BadRequest("Rebase failed: the branches have no common ancestor")
    if repo.is_ancestor(found.target, found.source):
        return None
    if has_conflicts(repo, found):
        raise BadRequest(
            "Rebase failed: Rebase locally, resolve all conflicts, then push the branch."
        )
    tree = _tree_with(repo, found, author, now)
    message = repo.get_commit(found.source).message
    sha = _commit(repo, tree, [found.target], message, author, now)
    old = found.source
    repo.set_branch(source_branch, sha)
    return RefUpdate(HEADS.decode() + source_branch, old, sha)
