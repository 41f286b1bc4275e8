"""Diff positions of merge request discussions: ``position[...]`` checked against the merge
request's diff (its ``diff_refs`` and the lines of the changed files at those commits).

A ``text`` position needs ``base_sha``, ``start_sha``, ``head_sha`` equal to the merge
request's ``diff_refs``, a path among the changed files (``new_path`` and/or
``old_path``) and a line that exists there (``new_line`` in the file at ``head_sha``,
``old_line`` at ``base_sha``); ``file`` positions name a changed path and no line.
Anything else is the model's complaint, as the API reports it (400).
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import BadRequest
from fakeservice.core.store import as_id
from fakeservice.repository.git import Repository

SHAS = ("base_sha", "start_sha", "head_sha")
TYPES = ("text", "file")
INCOMPLETE = 'Note {:position=>["is incomplete"]}'
BAD_LINE = 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'


def _text(raw: dict[str, Any], key: str) -> str | None:
    value = raw.get(key)
    return value if isinstance(value, str) and value else None


def _line(raw: dict[str, Any], key: str) -> int | None:
    value = raw.get(key)
    if value is None or value == "":
        return None
    line = as_id(value) if not isinstance(value, bool) else None
    if line is None or line < 1:
        raise BadRequest(BAD_LINE)
    return line


def _lines_of(repo: Repository, sha: str, path: str) -> int:
    if not repo.exists(sha, path):
        return 0
    return len(repo.raw(sha, path).decode("utf-8", "replace").splitlines())


def check(
    raw: Any,
    repo: Repository,
    refs: dict[str, str | None] | None,
    changed: list[Any],
) -> dict[str, Any]:
    """The position to store, or :class:`BadRequest` (nothing is written before)."""
    if not isinstance(raw, dict) or refs is None:
        raise BadRequest(INCOMPLETE)
    kind = raw.get("position_type")
    if kind not in TYPES or any(_text(raw, key) is None for key in SHAS):
        raise BadRequest(INCOMPLETE)
    if any(raw[key] != refs[key] for key in SHAS):
        raise BadRequest(INCOMPLETE)
    new_path, old_path = _text(raw, "new_path"), _text(raw, "old_path")
    paths = {entry.new_path for entry in changed} | {entry.old_path for entry in changed}
    if (new_path or old_path) is None or not {p for p in (new_path, old_path) if p} <= paths:
        raise BadRequest(INCOMPLETE)
    new_line, old_line = _line(raw, "new_line"), _line(raw, "old_line")
    if kind == "text":
        if new_line is None and old_line is None:
            raise BadRequest(BAD_LINE)
        if new_line is not None and new_line > _lines_of(
            repo, refs["head_sha"] or "", new_path or old_path or ""
        ):
            raise BadRequest(BAD_LINE)
        if old_line is not None and old_line > _lines_of(
            repo, refs["base_sha"] or "", old_path or new_path or ""
        ):
            raise BadRequest(BAD_LINE)
    return {
        "base_sha": raw["base_sha"],
        "start_sha": raw["start_sha"],
        "head_sha": raw["head_sha"],
        "old_path": old_path or new_path,
        "new_path": new_path or old_path,
        "position_type": kind,
        "old_line": old_line if kind == "text" else None,
        "new_line": new_line if kind == "text" else None,
        "line_range": None,
    }
