"""Paths and names: normalising file paths for writes and reads, ref name rules."""

from __future__ import annotations

from dulwich.refs import check_ref_format

from fakeservice.core.errors import BadRequest
from fakeservice.repository.engine.constants import (
    EMPTY_PATH,
    HEADS,
    NUL_IN_PATH,
    TAGS,
    TRAVERSAL,
    Path,
)


def normalize_path(path: str | None) -> Path:
    """Validate and split a file path for writing (errors as the real service words them)."""
    segments = [s for s in (path or "").split("/") if s not in ("", ".")]
    if ".." in segments:
        raise BadRequest(TRAVERSAL, raw=True)
    if not segments:
        raise BadRequest(EMPTY_PATH, raw=True)
    if any("\0" in s for s in segments):
        raise BadRequest(NUL_IN_PATH, raw=True)
    if (path or "").startswith("/") or any(s.lower() == ".git" for s in segments):
        raise BadRequest(f"invalid path: '{path}'", raw=True)  # git's own path check
    return tuple(enc(s) for s in segments)


def enc(text: str) -> bytes:
    """UTF-8 bytes of any ``str`` (lone surrogates from URL decoding included)."""
    return text.encode("utf-8", "surrogatepass")


def read_path(path: str | None) -> Path:
    return tuple(enc(s) for s in (path or "").split("/") if s not in ("", "."))


def is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def valid_ref_name(prefix: bytes, name: str) -> bool:
    if not name or name.startswith("-"):
        return False
    try:
        return check_ref_format(prefix + name.encode("utf-8"))
    except UnicodeEncodeError:
        return False


def valid_branch_name(name: str) -> bool:
    """Whether ``name`` may name a branch (git's ref rules, not ``HEAD``, no leading ``-``)."""
    return name != "HEAD" and valid_ref_name(HEADS, name)


def valid_tag_name(name: str) -> bool:
    return valid_ref_name(TAGS, name)


def join_path(prefix: bytes, name: bytes) -> bytes:
    return prefix + b"/" + name if prefix else name


def bad(message: str) -> BadRequest:
    return BadRequest(message, raw=True)
