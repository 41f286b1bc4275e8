"""Fetching between repositories of one instance: copy the objects reachable from a commit
of one repository that another lacks, and point a ref of the other at it (what the
service does when a merge request's source lives in a fork: the source head is fetched
into the target repository as ``refs/merge-requests/<iid>/head``).

The walk stops at every object the receiving repository has already, so its cost follows
the commits (and their new trees and blobs) the sender has beyond the receiver.
"""

from __future__ import annotations

from dulwich.objects import Commit, Tree

from fakeservice.repository.git import Repository

MERGE_REQUEST_HEAD = "refs/merge-requests/{iid}/head"


def copy_objects(sender: Repository, receiver: Repository, sha: str) -> None:
    """Copy what ``receiver`` lacks of the history of ``sha`` (a commit of ``sender``)."""
    theirs, mine = sender.object_store.raw, receiver.object_store.raw
    stack = [sha.encode()]
    while stack:
        key = stack.pop()
        if key in mine or key not in theirs:
            continue
        mine.adopt(theirs, key)  # as stored: a chunked tree's chunks stay shared
        obj = sender.object_store[key]
        if isinstance(obj, Commit):
            stack.append(obj.tree)
            stack.extend(obj.parents)
        elif isinstance(obj, Tree):
            stack.extend(entry.sha for entry in obj.iteritems())


def fetch_into(sender: Repository, receiver: Repository, sha: str, ref: str) -> None:
    """Copy the history of ``sha`` into ``receiver`` and point its ``ref`` at it."""
    copy_objects(sender, receiver, sha)
    receiver.refs_container()[ref.encode()] = sha.encode()


def read_ref(repo: Repository, ref: str) -> str | None:
    """The sha a (non-symbolic) ref points at, or None."""
    return repo.refs().get(ref)
