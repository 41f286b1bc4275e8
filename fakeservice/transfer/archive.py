"""Export archives: a gzip tar of ``VERSION``, ``tree/project.json`` (the project's
settings), ``tree/project/<relation>.ndjson`` (one JSON object per line, one file per
relation) and ``project.bundle`` (the repository as a git bundle).

Writing is deterministic: members sorted, owner and group 0, modes 0644, every time the
export's own. Reading never touches the disk and refuses, with an
:class:`ArchiveError` that becomes the import's ``import_error``: anything that is not
gzip or tar, members with absolute paths or ``..``, links and devices, more than
:data:`MAX_MEMBERS` members, more than :data:`MAX_DECOMPRESSED` bytes once decompressed.
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import tarfile
import zlib
from collections.abc import Iterable
from typing import Any

import attrs

VERSION = "0.2.4"
PROJECT_JSON = "tree/project.json"
BUNDLE = "project.bundle"
RELATION_DIR = "tree/project/"
MAX_MEMBERS = 1_000
MAX_DECOMPRESSED = 512 * 1024 * 1024
SIZE_ERROR = "Decompressed archive size validation failed."


class ArchiveError(ValueError):
    """The archive cannot be imported (the message is the import error)."""


@attrs.frozen
class Contents:
    version: str
    project: dict[str, Any]
    relations: dict[str, list[tuple[int, str]]]  # name -> (line number, raw line)
    bundle: bytes | None


def _ndjson(items: Iterable[dict[str, Any]]) -> bytes:
    return b"".join(
        json.dumps(item, sort_keys=True, separators=(",", ":")).encode() + b"\n" for item in items
    )


def write(
    project: dict[str, Any],
    relations: dict[str, list[dict[str, Any]]],
    bundle: bytes | None,
    when: dt.datetime,
) -> bytes:
    files: dict[str, bytes] = {
        "VERSION": VERSION.encode(),
        PROJECT_JSON: json.dumps(project, sort_keys=True, indent=2).encode(),
    }
    for name, items in relations.items():
        files[f"{RELATION_DIR}{name}.ndjson"] = _ndjson(items)
    if bundle is not None:
        files[BUNDLE] = bundle
    raw = io.BytesIO()
    stamp = int(when.timestamp())
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(files[name]), stamp, 0o644
            tar.addfile(info, io.BytesIO(files[name]))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=stamp, compresslevel=1) as compressed:
        compressed.write(raw.getvalue())
    return out.getvalue()


def _safe_name(name: str) -> str:
    clean = name.replace("\\", "/")
    while clean.startswith("./"):
        clean = clean[2:]
    parts = clean.split("/")
    if clean.startswith("/") or ".." in parts or (len(clean) > 1 and clean[1] == ":"):
        raise ArchiveError(f"Unsafe archive member: {name}")
    return clean


def _decompress(data: bytes) -> bytes:
    """The tar bytes inside the gzip layer, at most :data:`MAX_DECOMPRESSED` of them."""
    if data[:2] != b"\x1f\x8b":
        raise ArchiveError("The archive is not a gzip file")
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, MAX_DECOMPRESSED + 1)
    except zlib.error as error:
        raise ArchiveError(f"The archive is not a valid gzip file: {error}") from error
    if len(out) > MAX_DECOMPRESSED:
        raise ArchiveError(SIZE_ERROR)
    return out


def read(data: bytes) -> Contents:
    tar_bytes = _decompress(data)
    files: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:") as tar:
            for count, member in enumerate(tar, start=1):
                if count > MAX_MEMBERS:
                    raise ArchiveError("The archive has too many files")
                name = _safe_name(member.name)
                if member.isdir():
                    continue
                if not member.isfile():
                    raise ArchiveError(
                        f"Unsafe archive member: {member.name} is not a regular file"
                    )
                handle = tar.extractfile(member)
                files[name] = handle.read() if handle is not None else b""
    except tarfile.TarError as error:
        raise ArchiveError(f"The archive is not a valid tar file: {error}") from error
    if "VERSION" not in files or PROJECT_JSON not in files:
        raise ArchiveError(
            "The archive is not a project export: VERSION or tree/project.json is missing"
        )
    version = files["VERSION"].decode(errors="replace").strip()
    if version != VERSION:
        raise ArchiveError(f"Import version mismatch: Required {VERSION} but was {version}")
    try:
        project = json.loads(files[PROJECT_JSON])
    except (ValueError, UnicodeDecodeError) as error:
        raise ArchiveError(f"tree/project.json is not valid JSON: {error}") from error
    if not isinstance(project, dict):
        raise ArchiveError("tree/project.json is not a JSON object")
    relations: dict[str, list[tuple[int, str]]] = {}
    for name, content in files.items():
        if name.startswith(RELATION_DIR) and name.endswith(".ndjson"):
            text = content.decode("utf-8", errors="replace")
            relation = name[len(RELATION_DIR) : -len(".ndjson")]
            relations[relation] = [
                (number, line) for number, line in enumerate(text.splitlines()) if line.strip()
            ]
    return Contents(version, project, relations, files.get(BUNDLE))
