"""Artifact archives: deterministic zips, single-file reads with path checks, gzip metadata.

* :func:`build_zip` makes a real zip from ``{path: bytes}``: entries sorted, parent
  directories added (as runners upload them), every timestamp and attribute fixed, so the
  same files and time give the same bytes.
* :func:`read_member` serves one file of an archive; a path that is empty, absolute or
  climbs out (``..``) raises :class:`InvalidArtifactPath` (the service's 400 "invalid
  path"); a missing file is None (404); a broken archive raises :class:`ArchiveError`.
* :func:`build_metadata` writes the artifacts ``metadata`` file (gzip) the service keeps
  beside each archive: a header, an error object, then each path with its JSON attributes,
  every string prefixed with its big-endian 32-bit length.
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import posixpath
import re
import struct
import zipfile
import zlib
from collections.abc import Mapping

import attrs

METADATA_HEADER = "GitLab Build Artifacts Metadata 0.0.2\n"
FILE_MODE = 0o100644
DIR_MODE = 0o040755
DEFAULT_MAX_MEMBER_SIZE = 64 * 1024 * 1024
_EPOCH_1980 = dt.datetime(1980, 1, 1, tzinfo=dt.UTC)


class ArchiveError(ValueError):
    """The bytes are not a readable zip archive (or a member is too large to serve)."""


class InvalidArtifactPath(ValueError):
    """A path inside an archive that is empty, absolute or climbs out of it (HTTP 400)."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__("invalid path")


@attrs.frozen(slots=True)
class ArchiveEntry:
    """One member of an archive, as listed by :func:`list_entries`."""

    path: str
    size: int
    compressed_size: int
    crc: int
    is_dir: bool
    mode: int
    modified: dt.datetime


def normalize_member_path(path: str) -> str:
    """A safe relative path inside an archive; raises :class:`InvalidArtifactPath`."""
    if not isinstance(path, str) or not path or "\x00" in path:
        raise InvalidArtifactPath(str(path))
    if path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", path):
        raise InvalidArtifactPath(path)
    parts = [p for p in re.split(r"[/\\]", path) if p not in ("", ".")]
    if not parts or ".." in parts:
        raise InvalidArtifactPath(path)
    return "/".join(parts)


def _dos_time(when: dt.datetime) -> tuple[int, int, int, int, int, int]:
    moment = when if when.tzinfo else when.replace(tzinfo=dt.UTC)
    moment = max(moment.astimezone(dt.UTC), _EPOCH_1980)
    return (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second)


def _info(name: str, when: dt.datetime, mode: int, compress: bool) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=_dos_time(when))
    info.create_system = 3
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    return info


def build_zip(files: Mapping[str, bytes], *, when: dt.datetime) -> bytes:
    """A deterministic zip archive of ``files``; paths are checked and normalised."""
    normalised: dict[str, bytes] = {}
    for path, data in files.items():
        normalised[normalize_member_path(path)] = bytes(data)
    directories: set[str] = set()
    for path in normalised:
        parent = posixpath.dirname(path)
        while parent:
            directories.add(parent + "/")
            parent = posixpath.dirname(parent)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(set(normalised) | directories):
            if name in directories:
                archive.writestr(_info(name, when, DIR_MODE, compress=False), b"")
            else:
                archive.writestr(
                    _info(name, when, FILE_MODE, compress=True), normalised[name], compresslevel=6
                )
    return buffer.getvalue()


def _open(archive: bytes) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(archive))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise ArchiveError(f"invalid archive: {exc}") from exc


def _modified(info: zipfile.ZipInfo) -> dt.datetime:
    try:
        return dt.datetime(*info.date_time, tzinfo=dt.UTC)
    except ValueError:
        return _EPOCH_1980


def list_entries(archive: bytes) -> list[ArchiveEntry]:
    """Every member of ``archive``, in archive order."""
    with _open(archive) as zipped:
        return [
            ArchiveEntry(
                path=info.filename,
                size=info.file_size,
                compressed_size=info.compress_size,
                crc=info.CRC,
                is_dir=info.is_dir(),
                mode=(info.external_attr >> 16) & 0o7777,
                modified=_modified(info),
            )
            for info in zipped.infolist()
        ]


def read_member(
    archive: bytes, path: str, *, max_size: int = DEFAULT_MAX_MEMBER_SIZE
) -> bytes | None:
    """The bytes of one file of ``archive``; None when it is absent or a directory."""
    name = normalize_member_path(path)
    with _open(archive) as zipped:
        try:
            info = zipped.getinfo(name)
        except KeyError:
            return None
        if info.is_dir():
            return None
        if info.file_size > max_size:
            raise ArchiveError(f"{name} is larger than {max_size} bytes")
        try:
            return zipped.read(info)
        except (zipfile.BadZipFile, zlib.error, ValueError, OSError, EOFError) as exc:
            raise ArchiveError(f"invalid archive: {exc}") from exc


def gzip_bytes(data: bytes, *, when: dt.datetime | None = None) -> bytes:
    """Gzip ``data`` deterministically (fixed mtime, no file name)."""
    mtime = 0 if when is None else int(when.timestamp())
    return gzip.compress(data, compresslevel=6, mtime=mtime)


def gunzip_bytes(data: bytes) -> bytes:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise ArchiveError(f"invalid gzip data: {exc}") from exc


def _length_prefixed(text: str | bytes) -> bytes:
    raw = text.encode() if isinstance(text, str) else text
    return struct.pack(">I", len(raw)) + raw


def _entry_json(entry: ArchiveEntry | None) -> str:
    if entry is None:
        return "{}"
    attributes: dict[str, object] = {
        "modified": int(entry.modified.timestamp()),
        "mode": format(entry.mode & 0o777, "o"),
        "crc": entry.crc,
        "size": entry.size,
        "zipped": entry.compressed_size,
    }
    return json.dumps({k: v for k, v in attributes.items() if v}, separators=(",", ":"))


def build_metadata(archive: bytes, *, when: dt.datetime | None = None) -> bytes:
    """The gzipped artifacts metadata of ``archive`` (every path, parents included, sorted)."""
    entries: dict[str, ArchiveEntry | None] = {}
    for entry in list_entries(archive):
        entries[entry.path] = entry
        parent = posixpath.dirname(entry.path.rstrip("/"))
        while parent:
            entries.setdefault(parent + "/", None)
            parent = posixpath.dirname(parent)
    body = bytearray(_length_prefixed(METADATA_HEADER) + _length_prefixed("{}"))
    for path in sorted(entries):
        body += _length_prefixed(path) + _length_prefixed(_entry_json(entries[path]))
    return gzip_bytes(bytes(body), when=when)


def read_metadata(data: bytes) -> list[tuple[str, dict[str, object]]]:
    """The ``(path, attributes)`` pairs of a metadata file made by :func:`build_metadata`."""
    raw = gunzip_bytes(data)
    strings: list[bytes] = []
    position = 0
    while position < len(raw):
        if position + 4 > len(raw):
            raise ArchiveError("truncated metadata")
        (length,) = struct.unpack(">I", raw[position : position + 4])
        position += 4
        if position + length > len(raw):
            raise ArchiveError("truncated metadata")
        strings.append(raw[position : position + length])
        position += length
    if len(strings) < 2 or strings[0].decode() != METADATA_HEADER or len(strings) % 2:
        raise ArchiveError("not an artifacts metadata file")
    pairs = strings[2:]
    return [(pairs[i].decode(), json.loads(pairs[i + 1])) for i in range(0, len(pairs), 2)]
