"""JSON shapes of the repository area: files, blame, commits, diffs, tree entries,
branches, tags and protected branches; and the ``X-Service-*`` file metadata headers.

Field order follows the real service's entities. Commit timestamps use the API's
``YYYY-MM-DDThh:mm:ssZ`` form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from fakeservice.core.clock import iso
from fakeservice.projects.models import Project
from fakeservice.repository.git import (
    BlameRange,
    CommitInfo,
    CommitStats,
    DiffEntry,
    FileInfo,
    Tag,
    TreeEntry,
)
from fakeservice.repository.protected import DESCRIPTIONS, AccessLevel, ProtectedBranch

_TRAILER = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]*):[ \t]*(.*)")
_UNSAFE_HEADER = re.compile(r"[\x00-\x1f\x7f]")


def project_web_url(base_url: str, project: Project) -> str:
    return f"{base_url}/{project.path_with_namespace}"


# -- files --------------------------------------------------------------------------------


def _metadata(info: FileInfo) -> dict[str, Any]:
    return {
        "file_name": info.file_name,
        "file_path": info.file_path,
        "size": info.size,
        "encoding": info.encoding,
        "content_sha256": info.content_sha256,
        "ref": info.ref,
        "blob_id": info.blob_id,
        "commit_id": info.commit_id,
        "last_commit_id": info.last_commit_id,
        "execute_filemode": info.execute_filemode,
    }


def file_view(info: FileInfo) -> dict[str, Any]:
    """The repository file resource (seed 001 §2.1), content base64-encoded."""
    return {**_metadata(info), "content": info.content}


def header_value(value: Any) -> str:
    """A header value as it goes on the wire: UTF-8 bytes, control characters dropped."""
    if isinstance(value, bool):
        value = "true" if value else "false"
    text = _UNSAFE_HEADER.sub("", str(value))
    return text.encode("utf-8", "replace").decode("latin-1")


def file_headers(info: FileInfo) -> list[tuple[str, str]]:
    """``X-Service-File-Name``, ``-File-Path``, ``-Size``, ... in the resource's field order."""
    return [
        ("X-Service-" + "-".join(word.capitalize() for word in key.split("_")), header_value(value))
        for key, value in _metadata(info).items()
    ]


# The media types of a raw file or blob: text unless the bytes hold a NUL byte.
RAW_TYPES = ("application/octet-stream", "text/plain")


def raw_content_type(content: bytes) -> str:
    return "application/octet-stream" if b"\0" in content else "text/plain; charset=utf-8"


def content_disposition(file_name: str) -> str:
    plain = "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "_" for c in file_name)
    return f"inline; filename=\"{plain}\"; filename*=UTF-8''{quote(file_name, safe='')}"


def blame_view(ranges: Sequence[BlameRange]) -> list[dict[str, Any]]:
    return [
        {
            "commit": {
                "id": r.commit.id,
                "parent_ids": list(r.commit.parent_ids),
                "message": r.commit.message,
                "authored_date": iso(r.commit.authored_date),
                "author_name": r.commit.author_name,
                "author_email": r.commit.author_email,
                "committed_date": iso(r.commit.committed_date),
                "committer_name": r.commit.committer_name,
                "committer_email": r.commit.committer_email,
            },
            "lines": list(r.lines),
        }
        for r in ranges
    ]


# -- commits ------------------------------------------------------------------------------


def trailers(message: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Git trailers of a message's last paragraph (``Key: value`` lines), plain and grouped."""
    paragraphs = message.strip("\n").split("\n\n")
    if len(paragraphs) < 2:
        return {}, {}
    found = [_TRAILER.fullmatch(line) for line in paragraphs[-1].split("\n")]
    if not all(found):
        return {}, {}
    plain: dict[str, str] = {}
    grouped: dict[str, list[str]] = {}
    for match in found:
        assert match is not None
        key, value = match.group(1), match.group(2).strip()
        plain[key] = value
        grouped.setdefault(key, []).append(value)
    return plain, grouped


def commit_entity(info: CommitInfo, *, with_trailers: bool = True) -> dict[str, Any]:
    """The commit entity without its ``web_url`` (CI keeps it on pipelines, trailers left
    empty, and adds the URL when rendering); ``with_trailers=False`` leaves them empty."""
    plain, grouped = trailers(info.message) if with_trailers else ({}, {})
    return {
        "id": info.id,
        "short_id": info.short_id,
        "created_at": iso(info.created_at),
        "parent_ids": list(info.parent_ids),
        "title": info.title,
        "message": info.message,
        "author_name": info.author_name,
        "author_email": info.author_email,
        "authored_date": iso(info.authored_date),
        "committer_name": info.committer_name,
        "committer_email": info.committer_email,
        "committed_date": iso(info.committed_date),
        "trailers": plain,
        "extended_trailers": grouped,
    }


def commit_view(info: CommitInfo, web_url: str, *, with_trailers: bool = True) -> dict[str, Any]:
    """The commit entity of lists, branches and tags."""
    return {
        **commit_entity(info, with_trailers=with_trailers),
        "web_url": f"{web_url}/-/commit/{info.id}",
    }


def stats_view(stats: CommitStats) -> dict[str, int]:
    return {"additions": stats.additions, "deletions": stats.deletions, "total": stats.total}


def commit_detail(
    info: CommitInfo, web_url: str, project_id: int, stats: CommitStats | None
) -> dict[str, Any]:
    """The single-commit entity (``GET .../commits/:sha``, ``POST .../commits``)."""
    out = commit_view(info, web_url)
    if stats is not None:
        out["stats"] = stats_view(stats)
    out["status"] = None
    out["project_id"] = project_id
    out["last_pipeline"] = None
    return out


def diff_view(entry: DiffEntry) -> dict[str, Any]:
    return {
        "diff": entry.diff,
        "collapsed": False,
        "too_large": False,
        "new_path": entry.new_path,
        "old_path": entry.old_path,
        "a_mode": entry.a_mode,
        "b_mode": entry.b_mode,
        "new_file": entry.new_file,
        "renamed_file": entry.renamed_file,
        "deleted_file": entry.deleted_file,
        "generated_file": None,
    }


def tree_entry_view(entry: TreeEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "name": entry.name,
        "type": entry.type,
        "path": entry.path,
        "mode": entry.mode,
    }


# -- refs ---------------------------------------------------------------------------------


def branch_view(
    name: str,
    commit: CommitInfo,
    web_url: str,
    *,
    merged: bool,
    protected: bool,
    developers_can_push: bool,
    developers_can_merge: bool,
    can_push: bool,
    default: bool,
) -> dict[str, Any]:
    return {
        "name": name,
        "commit": commit_view(commit, web_url),
        "merged": merged,
        "protected": protected,
        "developers_can_push": developers_can_push,
        "developers_can_merge": developers_can_merge,
        "can_push": can_push,
        "default": default,
        "web_url": f"{web_url}/-/tree/{name}",
    }


def tag_view(tag: Tag, commit: CommitInfo, web_url: str) -> dict[str, Any]:
    return {
        "name": tag.name,
        "message": tag.message or "",
        "target": tag.target,
        "commit": commit_view(commit, web_url),
        "release": None,
        "protected": False,
        "created_at": iso(tag.created_at),
    }


def _access_level_view(level: AccessLevel) -> dict[str, Any]:
    return {
        "id": level.id,
        "access_level": level.access_level,
        "access_level_description": DESCRIPTIONS[level.access_level],
        "user_id": None,
        "group_id": None,
    }


def access_levels_view(levels: Sequence[AccessLevel]) -> list[dict[str, Any]]:
    return [_access_level_view(level) for level in levels]


def protected_branch_view(record: ProtectedBranch) -> dict[str, Any]:
    return {
        "id": record.id,
        "name": record.name,
        "push_access_levels": [_access_level_view(a) for a in record.push_access_levels],
        "merge_access_levels": [_access_level_view(a) for a in record.merge_access_levels],
        "unprotect_access_levels": [_access_level_view(a) for a in record.unprotect_access_levels],
        "allow_force_push": record.allow_force_push,
        "code_owner_approval_required": record.code_owner_approval_required,
    }
