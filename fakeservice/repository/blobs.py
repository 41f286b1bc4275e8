"""Reading git objects by id and summing history by author: blobs (``repository/blobs``)
and contributors (``repository/contributors``), over the repository's object store and
:meth:`~fakeservice.repository.git.Repository.commits`."""

from __future__ import annotations

import attrs

from fakeservice.core.errors import NotFound
from fakeservice.repository.git import Repository

BLOB_TYPE = 3  # git's object type number of a blob
CONTRIBUTOR_ORDERS = ("name", "email", "commits")


def read_blob(repo: Repository, sha: str) -> bytes | None:
    """The content of the blob ``sha`` (40 hex digits), or None."""
    lowered = sha.lower()
    if len(lowered) != 40 or any(c not in "0123456789abcdef" for c in lowered):
        return None
    try:
        kind, data = repo.object_store.get_raw(lowered.encode())
    except KeyError:
        return None
    return data if kind == BLOB_TYPE else None


@attrs.frozen
class Contributor:
    name: str
    email: str
    commits: int


def contributors(repo: Repository, ref: str | None, order_by: str, sort: str) -> list[Contributor]:
    """Authors of the history of ``ref`` (merge commits left out), one per email, named as in
    their newest commit; ties keep email order."""
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    try:
        history = [] if repo.is_empty else repo.commits(ref)
    except NotFound:  # an unknown ref has no contributors
        history = []
    for info in history:
        if len(info.parent_ids) > 1:
            continue
        counts[info.author_email] = counts.get(info.author_email, 0) + 1
        names.setdefault(info.author_email, info.author_name)
    found = sorted(
        (Contributor(names[email], email, count) for email, count in counts.items()),
        key=lambda c: c.email,
    )
    found.sort(key=lambda c: getattr(c, order_by), reverse=sort == "desc")
    return found
