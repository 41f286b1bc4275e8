"""Repository archives: the tree of a commit (or a folder of it) as ``tar.gz``,
``tar.bz2``, ``tar`` or ``zip`` bytes, under a top folder named as the service names it.

Bytes are deterministic: members in path order, every timestamp the commit's committer
date, owner ``0``/``0``, modes ``0644``/``0755`` (executables) and ``0775`` folders;
gzip and bzip2 streams carry no name and the same time.
"""

from __future__ import annotations

import bz2
import gzip
import io
import tarfile
import time
import zipfile
from collections.abc import Iterator

from fakeservice.repository.git import CommitInfo, Repository

# format (as in the path or ``format=``) -> file extension of the archive
FORMATS: dict[str, str] = {
    "tar.gz": "tar.gz",
    "tgz": "tar.gz",
    "gz": "tar.gz",
    "tar.bz2": "tar.bz2",
    "tbz": "tar.bz2",
    "tbz2": "tar.bz2",
    "tb2": "tar.bz2",
    "bz2": "tar.bz2",
    "tar": "tar",
    "zip": "zip",
}
CONTENT_TYPES: dict[str, str] = {
    "tar.gz": "application/gzip",
    "tar.bz2": "application/x-bzip2",
    "tar": "application/x-tar",
    "zip": "application/zip",
}


def prefix(project_path: str, ref: str, sha: str, path: str | None) -> str:
    """The archive's top folder (and file name stem): project, ref, sha and folder."""
    segments = [project_path, ref.replace("/", "-"), sha]
    if path:
        segments.append(path.strip("/").replace("/", "-"))
    return "-".join(segments)


def _files(repo: Repository, info: CommitInfo, path: str) -> Iterator[tuple[str, bytes, bool]]:
    """(path relative to ``path``, content, executable) of every file under ``path``."""
    base = path.strip("/")
    for entry in sorted(repo.tree(info.id, base, True), key=lambda e: e.path):
        if entry.type != "blob":
            continue
        relative = entry.path[len(base) + 1 :] if base else entry.path
        yield relative, repo.raw(info.id, entry.path), entry.mode == "100755"


def build(repo: Repository, info: CommitInfo, path: str, top: str, extension: str) -> bytes:
    """The archive of the files under ``path`` at commit ``info``."""
    stamp = int(info.committed_date.timestamp())
    files = list(_files(repo, info, path))
    if extension == "zip":
        return _zip(files, top, stamp)
    tar = _tar(files, top, stamp)
    if extension == "tar.gz":
        out = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=stamp) as stream:
            stream.write(tar)
        return out.getvalue()
    if extension == "tar.bz2":
        return bz2.compress(tar)
    return tar


def _folders(files: list[tuple[str, bytes, bool]], top: str) -> list[str]:
    """Every folder of the archive (``top`` first), each before what it holds."""
    found = [top]
    for relative, _, _ in files:
        parts = relative.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join([top, *parts[:depth]])
            if folder not in found:
                found.append(folder)
    return found


def _tar(files: list[tuple[str, bytes, bool]], top: str, stamp: int) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for folder in _folders(files, top):
            item = tarfile.TarInfo(folder + "/")
            item.type, item.mode, item.mtime = tarfile.DIRTYPE, 0o775, stamp
            archive.addfile(item)
        for relative, content, executable in files:
            item = tarfile.TarInfo(f"{top}/{relative}")
            item.size, item.mtime = len(content), stamp
            item.mode = 0o755 if executable else 0o644
            archive.addfile(item, io.BytesIO(content))
    return out.getvalue()


def _zip(files: list[tuple[str, bytes, bool]], top: str, stamp: int) -> bytes:
    when = time.gmtime(stamp)[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for folder in _folders(files, top):
            item = zipfile.ZipInfo(folder + "/", date_time=when)
            item.external_attr = (0o40775 << 16) | 0x10
            archive.writestr(item, b"")
        for relative, content, executable in files:
            item = zipfile.ZipInfo(f"{top}/{relative}", date_time=when)
            item.external_attr = (0o100755 if executable else 0o100644) << 16
            item.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(item, content)
    return out.getvalue()
