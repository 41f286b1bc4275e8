"""A repository as a git bundle (v2) and back.

The bundle lists ``HEAD`` (the default branch) and every ref (``refs/heads/*``,
``refs/tags/*``), and packs every object of the repository, undeltified, stored as zlib
level 0 and ordered by type and content: the same repository always gives the same
bytes, and versions of one tree sit side by side, so the archive's gzip layer finds
what they share (a 5,000-commit history packs to a tenth of the size it had with each
object compressed on its own, in a quarter of the time). Reading checks the pack's
checksum, every object (its zlib stream, its size, its shape) and that every ref points
at an object of the pack; anything else is a :class:`BundleError`.

Both ways walk the pack once, in time linear in its size, without building a dulwich
object per entry. A pack with deltas (made by ``git bundle``, not by this module) is
read through dulwich, which resolves them.
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
import zlib
from collections.abc import Iterator

from dulwich.bundle import read_bundle
from dulwich.objects import ShaFile, object_header
from dulwich.pack import PackInflater

from fakeservice.repository.git import Repository

HEADER = b"# v2 git bundle\n"
LEVEL = 0  # zlib level of each packed object: the archive's gzip compresses them
TREE, COMMIT, TAG = 2, 1, 4
DELTAS = (6, 7)  # ofs_delta, ref_delta
MAX_OBJECT = 512 * 1024 * 1024  # as the archive's own limit once decompressed
_TREE = re.compile(rb"(?:[1-7][0-7]{4,5} [^\x00]+\x00.{20})*", re.DOTALL)
_PERSON = rb"[^\n<]*<[^\n>]*> \d+ [+-]\d{4}\n"
_COMMIT = re.compile(
    rb"tree [0-9a-f]{40}\n(?:parent [0-9a-f]{40}\n)*author " + _PERSON + rb"committer " + _PERSON
)


class BundleError(ValueError):
    """The bytes are not a usable git bundle."""


class _Deltified(Exception):
    """The pack holds deltas: read it through dulwich."""


def _object_header(type_num: int, size: int) -> bytes:
    """A pack entry's header: type and size, seven bits per byte after the first four."""
    byte = (type_num << 4) | (size & 0x0F)
    size >>= 4
    out = bytearray()
    while size:
        out.append(byte | 0x80)
        byte, size = size & 0x7F, size >> 7
    out.append(byte)
    return bytes(out)


def write(repo: Repository) -> bytes:
    refs = {name: sha for name, sha in repo.refs().items() if name.startswith("refs/")}
    out = io.BytesIO()
    out.write(HEADER)
    head = repo.branch(repo.default_branch)
    if head is not None:  # lets ``git clone`` check the default branch out
        out.write(f"{head.commit_id} HEAD\n".encode())
    for name in sorted(refs):
        out.write(f"{refs[name]} {name}\n".encode())
    out.write(b"\n")
    raw = repo.object_store.raw
    checksum = hashlib.sha1()
    for chunk in _pack_chunks(raw):
        checksum.update(chunk)
        out.write(chunk)
    out.write(checksum.digest())
    return out.getvalue()


def _pack_chunks(raw: dict[bytes, tuple[int, bytes]]) -> Iterator[bytes]:
    yield b"PACK" + struct.pack(">II", 2, len(raw))
    for type_num, data in sorted(raw.values()):
        yield _object_header(type_num, len(data))
        yield zlib.compress(data, LEVEL)


def _entries(pack: memoryview) -> Iterator[tuple[int, bytes]]:
    """``(type, bytes)`` of each object of an undeltified pack (raises on anything else)."""
    if len(pack) < 32 or pack[:4] != b"PACK":
        raise BundleError("corrupt pack: no pack header")
    version, count = struct.unpack(">II", pack[4:12])
    if version not in (2, 3):
        raise BundleError(f"corrupt pack: version {version}")
    if hashlib.sha1(pack[:-20]).digest() != pack[-20:]:
        raise BundleError("corrupt pack: checksum mismatch")
    end, pos = len(pack) - 20, 12
    for _ in range(count):
        if pos >= end:
            raise BundleError("corrupt pack: truncated")
        byte = pack[pos]
        type_num, size, shift = (byte >> 4) & 7, byte & 0x0F, 4
        pos += 1
        while byte & 0x80:
            if pos >= end:
                raise BundleError("corrupt pack: truncated")
            byte = pack[pos]
            size |= (byte & 0x7F) << shift
            shift, pos = shift + 7, pos + 1
        if type_num in DELTAS:
            raise _Deltified
        if type_num not in (1, 2, 3, 4):
            raise BundleError(f"corrupt pack: object type {type_num}")
        if size > MAX_OBJECT:
            raise BundleError("corrupt pack: object too large")
        window = pack[pos : min(end, pos + size + (size >> 10) + 64)]
        inflater = zlib.decompressobj()
        try:
            data = inflater.decompress(window, size + 1)
        except zlib.error as error:
            raise BundleError(f"corrupt pack: {error}") from error
        if not inflater.eof or len(data) != size:
            raise BundleError("corrupt pack: an object's size does not match")
        pos += len(window) - len(inflater.unused_data)
        yield type_num, data
    if pos != end:
        raise BundleError("corrupt pack: trailing bytes")


def _check(type_num: int, data: bytes) -> None:
    """Refuse an object the repository could not read back: a tree must be a list of
    ``<mode> <name>\\0<20-byte id>`` entries, a commit start with its tree, parents,
    author and committer lines; a tag is parsed by dulwich."""
    if type_num == TREE:
        if _TREE.fullmatch(data) is None:
            raise BundleError("corrupt pack: a malformed tree")
    elif type_num == COMMIT:
        if _COMMIT.match(data) is None:
            raise BundleError("corrupt pack: a malformed commit")
    elif type_num == TAG:
        try:
            ShaFile.from_raw_string(type_num, data)
        except Exception as error:  # dulwich raises many kinds on a malformed object
            raise BundleError(f"corrupt pack: {type(error).__name__}") from error


def _fill(repo: Repository, pack: memoryview) -> None:
    raw = repo.object_store.raw
    for type_num, data in _entries(pack):
        _check(type_num, data)
        header = object_header(type_num, len(data))
        digest = hashlib.sha1(header)
        digest.update(data)
        raw[digest.hexdigest().encode()] = (type_num, data)


def read(data: bytes, default_branch: str) -> Repository:
    """A repository holding the bundle's objects and refs."""
    try:
        bundle = read_bundle(io.BytesIO(data))
    except (AssertionError, ValueError, KeyError, IndexError) as error:
        raise BundleError(f"not a git bundle: {error}") from error
    repo = Repository(default_branch)
    try:
        if bundle.prerequisites:
            raise BundleError("the bundle needs commits it does not hold")
        try:
            _fill(repo, memoryview(data)[data.index(b"\n\n") + 2 :])
        except _Deltified:
            repo = Repository(default_branch)
            for obj in PackInflater.for_pack_data(bundle.pack_data):
                repo.object_store.add_object(obj)
    except BundleError:
        raise
    except Exception as error:  # dulwich raises many kinds on a corrupt pack
        raise BundleError(f"corrupt pack: {type(error).__name__}") from error
    finally:
        bundle.close()
    refs = repo.refs_container()
    for name, sha in sorted(bundle.references.items()):
        if not name.startswith((b"refs/heads/", b"refs/tags/")):
            continue
        if sha not in repo.object_store.raw:
            raise BundleError(f"ref {name.decode(errors='replace')} points at a missing object")
        refs[name] = sha
    repo.adopt_default_branch([default_branch, "main", "master"])
    return repo
