"""The git bundle of exports, read and written in one pass: what it writes reads back to
the same objects and refs, ``git`` itself accepts it (and what ``git bundle`` makes,
deltas included, reads back), and every way a pack can be broken is a
:class:`BundleError` naming it (never anything else)."""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fakeservice import FakeService
from fakeservice.projects.models import find_project
from fakeservice.repository.models import find_repository
from fakeservice.transfer import bundle
from fakeservice.transfer.bundle import BundleError

from .conftest import stamp

GIT = shutil.which("git")


def _website() -> bundle.Repository:
    svc: FakeService = stamp("default", "default")
    project = find_project(svc.store, "acme/website")
    assert project is not None
    repo = find_repository(svc.store, project)
    assert repo is not None and not repo.is_empty
    return repo


def _split(data: bytes) -> tuple[bytes, bytes]:
    at = data.index(b"\n\n") + 2
    return data[:at], data[at:]


def _sealed(pack_body: bytes) -> bytes:
    """A pack body (header and entries) with its checksum."""
    return pack_body + hashlib.sha1(pack_body).digest()


def test_written_bundle_reads_back_the_same() -> None:
    repo = _website()
    data = bundle.write(repo)
    assert bundle.write(repo) == data  # deterministic
    copy = bundle.read(data, repo.default_branch)
    assert copy.object_store.raw == repo.object_store.raw
    assert {k: v for k, v in copy.refs().items() if k.startswith("refs/")} == {
        k: v for k, v in repo.refs().items() if k.startswith("refs/")
    }


@pytest.mark.skipif(GIT is None, reason="needs git")
def test_git_verifies_it_and_its_own_deltified_bundle_reads_back(tmp_path: Path) -> None:
    repo = _website()
    path = tmp_path / "export.bundle"
    path.write_bytes(bundle.write(repo))
    run = lambda *args: subprocess.run(  # noqa: E731
        [GIT, *args], cwd=tmp_path, check=True, capture_output=True
    )
    run("clone", "-q", str(path), "clone")
    for index in range(30):  # similar files: git stores deltas between them
        (tmp_path / "clone" / "big.txt").write_text("line\n" * 200 + f"change {index}\n")
        run("-C", "clone", "add", "big.txt")
        run(
            "-C", "clone", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", f"c{index}"
        )
    run("-C", "clone", "repack", "-adq", "--depth=50", "--window=50")
    run("-C", "clone", "bundle", "create", "-q", str(tmp_path / "git.bundle"), "--all")
    data = (tmp_path / "git.bundle").read_bytes()
    copy = bundle.read(data, "main")
    head = run("-C", "clone", "rev-parse", "HEAD").stdout.decode().strip()
    assert copy.branch(copy.default_branch).commit_id == head


def _broken(kind: str) -> bytes:
    header, pack = _split(bundle.write(_website()))
    body = pack[:-20]
    if kind == "checksum":
        return header + body + b"\0" * 20
    if kind == "truncated":
        return header + _sealed(body[: len(body) // 2])
    if kind == "trailing":
        return header + _sealed(body + b"extra")
    if kind == "count":
        return header + _sealed(body[:8] + struct.pack(">I", 10**6) + body[12:])
    if kind == "version":
        return header + _sealed(body[:4] + struct.pack(">I", 9) + body[8:])
    if kind == "type":
        return header + _sealed(body[:12] + bytes([body[12] & 0x8F | 0x50]) + body[13:])
    if kind == "size":  # the first entry claims one byte more than it holds
        return header + _sealed(body[:12] + bytes([body[12] + 1]) + body[13:])
    if kind == "malformed tree":
        data = b"100644 name-without-terminator"
        entry = bundle._object_header(2, len(data)) + __import__("zlib").compress(data)
        return (
            header.split(b"\n")[0] + b"\n\n" + _sealed(b"PACK" + struct.pack(">II", 2, 1) + entry)
        )
    raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind",
    ["checksum", "truncated", "trailing", "count", "version", "type", "size", "malformed tree"],
)
def test_broken_packs_are_bundle_errors(kind: str) -> None:
    with pytest.raises(BundleError, match=r"corrupt pack|not a git bundle"):
        bundle.read(_broken(kind), "main")


@settings(max_examples=40, deadline=None)
@given(noise=st.binary(min_size=1, max_size=64), at=st.integers(min_value=0, max_value=10**6))
def test_any_damage_is_a_bundle_error_or_reads(noise: bytes, at: int) -> None:
    data = bytearray(bundle.write(_website()))
    start = data.index(b"\n\n") + 2
    place = start + at % (len(data) - start)
    data[place : place + len(noise)] = noise
    try:
        bundle.read(bytes(data), "main")
    except BundleError:
        pass
