"""Wiki page names as the service makes them: titles, slugs, formats and file paths.

A page is a file of the wiki repository. Its slug is its path without the extension,
made from the title by squishing each path component and turning spaces into ``-``
(``Deploy Guide`` is ``Deploy-Guide.md``; ``ops/On Call`` is ``ops/On-Call.md``). Its
title is the file name without the extension, ``-`` read back as spaces. The format
follows the extension: ``md`` (and the other markdown spellings), ``rdoc``,
``asciidoc`` (``adoc``) and ``org``; files of other kinds (attachments) are not pages.
"""

from __future__ import annotations

import posixpath
import re

FORMATS: dict[str, str] = {
    "markdown": "md",
    "rdoc": "rdoc",
    "asciidoc": "asciidoc",
    "org": "org",
}
_BY_EXTENSION: dict[str, str] = {
    "md": "markdown",
    "markdown": "markdown",
    "mdown": "markdown",
    "mkdn": "markdown",
    "mkd": "markdown",
    "rdoc": "rdoc",
    "asciidoc": "asciidoc",
    "adoc": "asciidoc",
    "org": "org",
}
MAX_TITLE_BYTES = 245
MAX_DIRECTORY_BYTES = 255
_SPACES = re.compile(r"\s+")


def squish(title: str) -> str:
    """Each path component trimmed, inner runs of white space made one space."""
    parts = [_SPACES.sub(" ", part).strip() for part in title.split("/")]
    return "/".join(parts)


def slug_of(title: str) -> str:
    return title.replace(" ", "-")


def title_of(slug: str) -> str:
    return posixpath.basename(slug).replace("-", " ")


def file_path(slug: str, page_format: str) -> str:
    return f"{slug}.{FORMATS[page_format]}"


def split_page_path(path: str) -> tuple[str, str] | None:
    """``(slug, format)`` of a repository file that is a page, None for other files."""
    stem, dot, extension = path.rpartition(".")
    found = _BY_EXTENSION.get(extension.lower()) if dot and stem else None
    return (stem, found) if found else None


def title_errors(title: str) -> dict[str, list[str]]:
    """The service's validation messages for a (squished) page title."""
    if not title.strip("/ "):
        return {"title": ["can't be blank"]}
    parts = slug_of(title).strip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        return {"title": ["is invalid"]}
    if len(parts[-1].encode()) > MAX_TITLE_BYTES:
        return {"title": [f"exceeds the limit of {MAX_TITLE_BYTES} bytes"]}
    if any(len(part.encode()) > MAX_DIRECTORY_BYTES for part in parts[:-1]):
        return {"title": [f"exceeds the limit of {MAX_DIRECTORY_BYTES} bytes for directory names"]}
    return {}


EXTENSIONS: tuple[str, ...] = tuple(_BY_EXTENSION)
