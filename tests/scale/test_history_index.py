"""The change-tree index answers "last commit that changed a path" (file GET, blame,
``commits?path=``) exactly as walking the history does, on random histories with
branches, merges, deletions and directory/file swaps; and survives pickling."""

from __future__ import annotations

import datetime as dt
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from fakeservice.core.errors import BadRequest
from fakeservice.repository.git import MODE_DIR, Action, Path, Repository
from fakeservice.repository.lastchange import build

START = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
AUTHOR = {"author_name": "a", "author_email": "a@x.test"}
PATHS = ["a.txt", "d/b.txt", "d/e/c.txt", "d/e/f.txt", "g/h.txt"]


def reference_last(repo: Repository, start: bytes, parts: Path) -> bytes | None:
    """The history walk the index replaces: follow the first unchanged parent."""
    entry = repo._entry(start, parts)
    if entry is None:
        return None
    current = start
    while True:
        tree, parents = repo._graph(current)
        nxt = None
        for parent in parents:
            parent_tree = repo._graph(parent)[0]
            if parent_tree == tree or repo._lookup(parent_tree, parts) == entry:
                nxt = parent
                break
        if nxt is None:
            return current
        current = nxt


step = st.tuples(
    st.sampled_from(["write", "delete", "branch", "merge"]),
    st.sampled_from(PATHS),
    st.integers(0, 3),
)


def put(
    repo: Repository, branch: str, actions: list[Action], message: str, when: dt.datetime
) -> str:
    """One commit on ``branch`` by a fixed author."""
    return repo.commit(branch, actions, message=message, when=when, **AUTHOR)


def grow(steps: list[tuple[str, str, int]]) -> Repository:
    repo = Repository("main")
    put(repo, "main", [Action("create", "a.txt", b"0")], "init", START)
    branches = ["main"]
    for number, (kind, path, pick) in enumerate(steps, start=1):
        when = START + dt.timedelta(minutes=number)
        branch = branches[pick % len(branches)]
        exists = repo.exists(branch, path)
        if kind == "branch":
            name = f"b{number}"
            repo.create_branch(name, branch)
            branches.append(name)
        elif kind == "merge" and len(branches) > 1:
            other = branches[(pick + 1) % len(branches)]
            first, second = repo.resolve(branch), repo.resolve(other)
            if first == second:
                continue
            tree = repo.get_commit(other if pick % 2 else branch).tree_id
            sha = repo.create_commit(tree, [first, second], message="merge", when=when, **AUTHOR)
            repo.set_branch(branch, sha)
        elif kind == "delete" and exists:
            put(repo, branch, [Action("delete", path)], f"rm {path}", when)
        elif kind in ("write", "delete"):
            action = "update" if exists else "create"
            if not exists and any(
                repo.exists(branch, p) for p in PATHS if p.startswith(path + "/")
            ):
                continue
            try:
                put(repo, branch, [Action(action, path, str(number).encode())], path, when)
            except BadRequest:  # a path through a file: refused, skip
                continue
    return repo


def every_path() -> list[Path]:
    found = {()}
    for path in PATHS:
        parts = tuple(p.encode() for p in path.split("/"))
        for depth in range(1, len(parts) + 1):
            found.add(parts[:depth])
    return sorted(found)


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=25))
def test_the_index_agrees_with_the_history_walk(steps: list[tuple[str, str, int]]) -> None:
    repo = grow(steps)
    commits = [c for c, (kind, _) in repo._store.raw.items() if kind == 1]
    for commit in commits:
        for parts in every_path():
            assert repo._last_commit(commit, parts) == reference_last(repo, commit, parts)
    # and the same after pickling (the index travels) and after a rebuild from nothing
    again = pickle.loads(pickle.dumps(repo))
    cold = pickle.loads(pickle.dumps(repo))
    cold._marks.clear()
    for commit in commits:
        for parts in every_path():
            expected = reference_last(repo, commit, parts)
            assert again._last_commit(commit, parts) == expected
            assert cold._last_commit(commit, parts) == expected


def test_an_unchanged_entry_shares_the_parents_node() -> None:
    trees = {b"root": {b"a": (0o100644, b"1"), b"d": (MODE_DIR, b"dir")}, b"dir": {}}
    parent = build(b"p", (MODE_DIR, b"root"), [], trees.__getitem__)
    trees[b"root2"] = {b"a": (0o100644, b"2"), b"d": (MODE_DIR, b"dir")}
    child = build(b"c", (MODE_DIR, b"root2"), [((MODE_DIR, b"root"), parent)], trees.__getitem__)
    assert child[1] is not None and parent[1] is not None
    assert child[1][b"d"] is parent[1][b"d"]  # shared, not copied
    assert child[1][b"a"][0] == b"c" and child[0] == b"c"


def test_commits_by_path_match_the_walk_over_a_long_history() -> None:
    repo = Repository("main")
    for number in range(200):
        path = "keep.txt" if number % 50 == 0 else f"other/{number % 7}.txt"
        exists = repo.exists("main", path) if number else False
        change = Action("update" if exists else "create", path, str(number).encode())
        put(repo, "main", [change], str(number), START + dt.timedelta(minutes=number))
    found = [c.message for c in repo.commits("main", path="keep.txt")]
    assert found == ["150", "100", "50", "0"]
    assert [r.commit.message for r in repo.blame("main", "keep.txt")] == ["150"]
