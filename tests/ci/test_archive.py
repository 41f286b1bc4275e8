"""Tests for artifact archives: deterministic zips, path checks, metadata, gzip."""

from __future__ import annotations

import datetime as dt
import gzip
import io
import zipfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fakeservice.ci.artifacts import archive
from fakeservice.ci.artifacts.archive import ArchiveError, InvalidArtifactPath

WHEN = dt.datetime(2026, 1, 1, 9, 30, 0, tzinfo=dt.UTC)
FILES = {"dist/app.bin": b"\x00\x01" * 500, "README.md": b"# hello\n", "dist/sub/log.txt": b"ok"}


def test_zip_is_a_real_sorted_archive() -> None:
    data = archive.build_zip(FILES, when=WHEN)
    with zipfile.ZipFile(io.BytesIO(data)) as zipped:
        assert zipped.testzip() is None
        assert zipped.namelist() == [
            "README.md",
            "dist/",
            "dist/app.bin",
            "dist/sub/",
            "dist/sub/log.txt",
        ]
        info = zipped.getinfo("dist/app.bin")
        assert info.date_time == (2026, 1, 1, 9, 30, 0)
        assert info.compress_type == zipfile.ZIP_DEFLATED
        assert zipped.read("README.md") == b"# hello\n"
    entries = archive.list_entries(data)
    assert [(e.path, e.is_dir, e.mode) for e in entries][:2] == [
        ("README.md", False, 0o644),
        ("dist/", True, 0o755),
    ]
    assert entries[2].size == 1000


def test_zip_is_deterministic_whatever_the_input_order() -> None:
    first = archive.build_zip(FILES, when=WHEN)
    second = archive.build_zip(dict(reversed(list(FILES.items()))), when=WHEN)
    assert first == second
    assert archive.build_zip(FILES, when=WHEN + dt.timedelta(hours=1)) != first


paths = st.lists(
    st.text(alphabet="abcdefghij_-", min_size=1, max_size=6), min_size=1, max_size=3
).map("/".join)


@given(st.dictionaries(paths, st.binary(max_size=64), max_size=6))
def test_zip_round_trip(files: dict[str, bytes]) -> None:
    data = archive.build_zip(files, when=WHEN)
    assert data == archive.build_zip(files, when=WHEN)
    for path, content in files.items():
        if any(other.startswith(path + "/") for other in files):
            continue  # a path that is also a directory of another is listed as both
        assert archive.read_member(data, path) == content


def test_read_member() -> None:
    data = archive.build_zip(FILES, when=WHEN)
    assert archive.read_member(data, "dist/sub/log.txt") == b"ok"
    assert archive.read_member(data, "./dist//sub/log.txt") == b"ok"
    assert archive.read_member(data, "missing.txt") is None
    assert archive.read_member(data, "dist") is None
    assert archive.read_member(data, "dist/") is None
    with pytest.raises(ArchiveError):
        archive.read_member(data, "dist/app.bin", max_size=10)


@pytest.mark.parametrize(
    "path",
    [
        "",
        "../x",
        "dist/../../etc/passwd",
        "/etc/passwd",
        "\\windows",
        "C:/x",
        "a/..",
        "..",
        "a\x00b",
        ".",
        "./",
    ],
)
def test_traversal_and_absolute_paths_are_invalid(path: str) -> None:
    data = archive.build_zip(FILES, when=WHEN)
    with pytest.raises(InvalidArtifactPath) as caught:
        archive.read_member(data, path)
    assert str(caught.value) == "invalid path"
    assert isinstance(caught.value, ValueError)
    with pytest.raises(InvalidArtifactPath):
        archive.build_zip({path: b"x"}, when=WHEN)


@pytest.mark.parametrize("payload", [b"", b"not a zip", b"PK\x03\x04garbage"])
def test_malformed_archives(payload: bytes) -> None:
    with pytest.raises(ArchiveError):
        archive.read_member(payload, "x")
    with pytest.raises(ArchiveError):
        archive.list_entries(payload)


def test_corrupted_member_is_an_archive_error() -> None:
    data = bytearray(archive.build_zip({"a.txt": b"hello world" * 50}, when=WHEN))
    start = data.index(b"a.txt") + len(b"a.txt")
    data[start + 5] ^= 0xFF
    with pytest.raises(ArchiveError):
        archive.read_member(bytes(data), "a.txt")


def test_metadata_lists_every_path() -> None:
    data = archive.build_zip({"dist/a.txt": b"abc"}, when=WHEN)
    metadata = archive.build_metadata(data)
    assert metadata == archive.build_metadata(data)
    raw = gzip.decompress(metadata)
    assert raw.startswith(b"\x00\x00\x00&GitLab Build Artifacts Metadata 0.0.2\n\x00\x00\x00\x02{}")
    entries = archive.read_metadata(metadata)
    assert [path for path, _ in entries] == ["dist/", "dist/a.txt"]
    attributes = dict(entries)["dist/a.txt"]
    assert attributes["size"] == 3
    assert attributes["mode"] == "644"
    assert attributes["modified"] == int(WHEN.replace(minute=30).timestamp())
    with pytest.raises(ArchiveError):
        archive.read_metadata(archive.gzip_bytes(b"\x00\x00\x00\x05hello"))


def test_gzip_is_deterministic() -> None:
    assert archive.gzip_bytes(b"trace") == archive.gzip_bytes(b"trace")
    assert archive.gunzip_bytes(archive.gzip_bytes(b"trace", when=WHEN)) == b"trace"
    with pytest.raises(ArchiveError):
        archive.gunzip_bytes(b"nope")
