"""Cherry-pick and revert: replay one commit's change (or its inverse) on a branch.

The change is replayed path by path (a three-way merge at file level): a path the branch
still holds as the change found it takes the change's result; one the branch already
holds as the result is left alone; any other is a conflict. Nothing left to change is an
empty change. Both raise :class:`ChangeError` with the service's message and
``error_code`` (``conflict`` or ``empty``) before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from fakeservice.repository.git import Action, CommitInfo, Repository

Kind = Literal["cherry_pick", "revert"]


class ChangeError(Exception):
    def __init__(self, kind: Kind, error_code: str) -> None:
        act = "cherry-pick" if kind == "cherry_pick" else "revert"
        self.error_code = error_code
        self.message = (
            f"Sorry, we cannot {act} this commit automatically. This commit may already have "
            f"been {act}ed, or a more recent commit may have updated some of its content."
        )
        super().__init__(self.message)


def _read(repo: Repository, sha: str | None, path: str) -> bytes | None:
    if sha is None or not repo.exists(sha, path):
        return None
    return repo.raw(sha, path)


def _changes(repo: Repository, info: CommitInfo) -> Iterator[str]:
    """The paths a commit touched: each side of a rename counts on its own."""
    for entry in repo.diff(info.id):
        yield entry.old_path
        if entry.new_path != entry.old_path:
            yield entry.new_path


def replay(repo: Repository, info: CommitInfo, head: str, kind: Kind) -> list[Action]:
    """The actions that apply ``info`` (``cherry_pick``) or undo it (``revert``) on the
    commit ``head``; :class:`ChangeError` on a conflict or an empty change."""
    parent = info.parent_ids[0] if info.parent_ids else None
    before, after = (parent, info.id) if kind == "cherry_pick" else (info.id, parent)
    actions: list[Action] = []
    for path in dict.fromkeys(_changes(repo, info)):
        was, becomes, current = (
            _read(repo, before, path),
            _read(repo, after, path),
            _read(repo, head, path),
        )
        if current == becomes:
            continue
        if current != was:
            raise ChangeError(kind, "conflict")
        if becomes is None:
            actions.append(Action("delete", path))
        else:
            actions.append(Action("create" if current is None else "update", path, becomes))
    if not actions:
        raise ChangeError(kind, "empty")
    return actions


def message_for(info: CommitInfo, kind: Kind, custom: str | None) -> str:
    """The new commit's message, as the service writes it."""
    if custom:
        return custom
    if kind == "revert":
        return f'Revert "{info.title.strip()}"\n\nThis reverts commit {info.id}'
    return f"{info.message.rstrip()}\n\n(cherry picked from commit {info.id})"
