"""A repository as a git bundle (v2) and back, with dulwich.

The bundle lists ``HEAD`` (the default branch) and every ref (``refs/heads/*``,
``refs/tags/*``), and packs every object
of the repository, undeltified and in sha order, so the same repository always gives
the same bytes. Reading checks the pack's checksums and that every ref points at an
object of the pack; anything else is a :class:`BundleError`.
"""

from __future__ import annotations

import io

from dulwich.bundle import read_bundle
from dulwich.object_format import DEFAULT_OBJECT_FORMAT
from dulwich.pack import PackInflater, UnpackedObject, write_pack_data

from fakeservice.repository.git import Repository

HEADER = b"# v2 git bundle\n"


class BundleError(ValueError):
    """The bytes are not a usable git bundle."""


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
    records = (
        UnpackedObject(raw[sha][0], decomp_chunks=[raw[sha][1]], sha=bytes.fromhex(sha.decode()))
        for sha in sorted(raw)
    )
    write_pack_data(
        out.write, records, DEFAULT_OBJECT_FORMAT, num_records=len(raw), compression_level=1
    )
    return out.getvalue()


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
