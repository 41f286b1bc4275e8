"""File commits: applying create/update/delete/move/chmod actions atomically, and
storing commit objects."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from dulwich.objects import Commit

from fakeservice.core.errors import ParamError
from fakeservice.repository.engine.constants import (
    ACTIONS,
    BRANCH_INVALID,
    DIR_EXISTS,
    FILE_EXISTS,
    FILE_MISSING,
    HEADS,
    MODE_DIR,
    MODE_EXEC,
    MODE_FILE,
    NO_CHANGES,
    NOT_ON_BRANCH,
    STALE_DELETE,
    STALE_UPDATE,
    ApiFlavour,
    Entry,
    Path,
)
from fakeservice.repository.engine.editor import TreeEditor
from fakeservice.repository.engine.history import History
from fakeservice.repository.engine.paths import bad, enc, normalize_path, valid_branch_name
from fakeservice.repository.engine.records import Action
from fakeservice.repository.engine.text import ident


class FileCommits(History):
    """Commits made through the API (files and commits endpoints)."""

    def commit(
        self,
        branch: str,
        actions: Sequence[Action],
        *,
        message: str,
        author_name: str,
        author_email: str,
        when: dt.datetime,
        committer_name: str | None = None,
        committer_email: str | None = None,
        start_branch: str | None = None,
        force: bool = False,
        api: ApiFlavour = "files",
    ) -> str:
        """Apply ``actions`` as one commit on ``branch``; all or nothing. Returns the sha.

        Errors are 400 ``{"message": <text>}`` with the real service's texts (see the
        module constants). ``api="commits"`` words a stale ``last_commit_id`` as the
        commits API does (``The file has changed since you started editing it: <path>``).
        """
        parent = self._commit_parent(branch, start_branch, force)
        base = self._info(parent).tree_id.encode() if parent is not None else None
        editor = TreeEditor(self, base)
        for action in actions:
            self._apply(editor, action, parent, api)
        tree = editor.write()
        if not actions or (parent is not None and tree == base):
            raise bad(NO_CHANGES)
        for sha, (kind, data) in editor.objects.items():
            self._store.raw.add(sha, kind, data)
        parents = [parent.decode()] if parent is not None else []
        sha = self.create_commit(
            tree.decode(),
            parents,
            message=message,
            author_name=author_name,
            author_email=author_email,
            when=when,
            committer_name=committer_name,
            committer_email=committer_email,
        )
        self._refs[HEADS + enc(branch)] = sha.encode()
        self.adopt_default_branch([branch])
        if parent is None or parent in self._marks:
            self._mark(sha.encode())  # keep the change trees current (cheap: one step)
        return sha

    def create_commit(
        self,
        tree_id: str,
        parent_ids: Sequence[str],
        *,
        message: str,
        author_name: str,
        author_email: str,
        when: dt.datetime,
        committer_name: str | None = None,
        committer_email: str | None = None,
    ) -> str:
        """Store a commit object (no ref moves); dates are ``when`` in UTC."""
        obj = Commit()
        obj.tree = tree_id.encode()
        obj.parents = [p.encode() for p in parent_ids]
        obj.author = ident(author_name, author_email)
        obj.committer = ident(committer_name or author_name, committer_email or author_email)
        obj.author_time = obj.commit_time = int(when.timestamp())
        obj.author_timezone = obj.commit_timezone = 0
        obj.message = enc(message)
        self._store.add_object(obj)
        return obj.id.decode()

    def _commit_parent(self, branch: str, start_branch: str | None, force: bool) -> bytes | None:
        """The commit a new commit on ``branch`` builds on (None for an empty repository)."""
        if self.is_empty:
            if not valid_branch_name(branch):
                raise bad(BRANCH_INVALID)
            return None
        source = self.branch(start_branch or branch)
        if source is None:
            raise bad(NOT_ON_BRANCH)
        if start_branch and start_branch != branch:
            if self.branch(branch) is not None and not force:
                raise bad(
                    f"A branch called '{branch}' already exists. "
                    "Switch to that branch in order to make changes"
                )
            if not valid_branch_name(branch):
                raise bad(
                    f"Something went wrong when we tried to create '{branch}' for you: "
                    f"{BRANCH_INVALID}"
                )
        return source.commit_id.encode()

    def _apply(
        self, editor: TreeEditor, action: Action, parent: bytes | None, api: ApiFlavour
    ) -> None:
        if action.action not in ACTIONS:
            raise ParamError("actions[action] does not have a valid value")
        parts = normalize_path(action.file_path)
        current = editor.get(parts)
        kind = action.action
        if kind == "create":
            self._apply_create(editor, action, parts, current)
            return
        if kind == "move":
            self._apply_move(editor, action, parts, current)
            return
        if current is None or current[0] == MODE_DIR:
            raise bad(FILE_MISSING)
        self._check_fresh(parent, parts, action, api)
        if kind == "delete":
            editor.remove(parts)
            return
        mode = new_mode(current[0], action.execute_filemode)
        if kind == "chmod":
            editor.put(parts, mode, current[1])
            return
        editor.put(parts, mode, editor.add_blob(action.content or b""))

    def _apply_create(
        self, editor: TreeEditor, action: Action, parts: Path, current: Entry | None
    ) -> None:
        if current is not None:
            raise bad(DIR_EXISTS if current[0] == MODE_DIR else FILE_EXISTS)
        mode = MODE_EXEC if action.execute_filemode else MODE_FILE
        editor.put(parts, mode, editor.add_blob(action.content or b""))

    def _apply_move(
        self, editor: TreeEditor, action: Action, parts: Path, current: Entry | None
    ) -> None:
        source_parts = normalize_path(action.previous_path)
        source = editor.get(source_parts)
        if source is None or source[0] == MODE_DIR:
            raise bad(FILE_MISSING)
        if current is not None:
            raise bad(DIR_EXISTS if current[0] == MODE_DIR else FILE_EXISTS)
        editor.remove(source_parts)
        sha = source[1] if action.content is None else editor.add_blob(action.content)
        editor.put(parts, new_mode(source[0], action.execute_filemode), sha)

    def _check_fresh(
        self, parent: bytes | None, parts: Path, action: Action, api: ApiFlavour
    ) -> None:
        if not action.last_commit_id or parent is None:
            return
        last = self._last_commit(parent, parts)
        if last is None or last.decode() == action.last_commit_id:
            return
        if api == "commits":
            raise bad(f"The file has changed since you started editing it: {action.file_path}")
        raise bad(STALE_DELETE if action.action == "delete" else STALE_UPDATE)


def new_mode(mode: int, execute: bool | None) -> int:
    if execute is None or mode not in (MODE_FILE, MODE_EXEC):
        return mode
    return MODE_EXEC if execute else MODE_FILE
