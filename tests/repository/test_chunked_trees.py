"""Large trees kept as shared chunks give git's exact ids, reads and listings.

Random sequences of file actions (create, update, delete, move, chmod; nested paths;
a directory wide enough to cross many chunk boundaries, with names that sort around a
directory of the same stem) are committed, and after each commit the root tree id is
the one dulwich computes for the same files built from scratch; the listing, the file
reads and the last commit of each path agree with a plain model and a history walk.
A fixed sequence keeps the ids the engine gave before trees were chunked.
"""

from __future__ import annotations

import copy
import datetime as dt
import pickle
import zlib

from dulwich.objects import Blob, Tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice.repository.engine import chunks, hashtrie
from fakeservice.repository.git import MODE_DIR, MODE_EXEC, MODE_FILE, Action, Repository
from fakeservice.transfer import bundle

START = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
AUTHOR = {"author_name": "a", "author_email": "a@x.test"}
WIDE = 300  # files the wide directory starts with: a few chunks of CHUNK_MAX

Model = dict[str, tuple[int, bytes]]  # file path -> (mode, content)


def reference_tree(model: Model) -> bytes:
    """The root tree id, built from scratch with dulwich's own objects."""
    root: dict[str, object] = {}
    for path, entry in model.items():
        *dirs, name = path.split("/")
        node = root
        for part in dirs:
            node = node.setdefault(part, {})  # type: ignore[assignment]
        node[name] = entry

    def write(node: dict[str, object]) -> bytes:
        tree = Tree()
        for name, value in node.items():
            if isinstance(value, dict):
                tree.add(name.encode(), MODE_DIR, write(value))
            else:
                mode, content = value  # type: ignore[misc]
                tree.add(name.encode(), mode, Blob.from_string(content).id)
        return tree.id

    return write(root)


def start_repo() -> tuple[Repository, Model]:
    repo = Repository("main")
    model: Model = {f"wide/n{k:03d}": (MODE_FILE, b"%d\n" % k) for k in range(WIDE)}
    model["top.txt"] = (MODE_FILE, b"top\n")
    actions = [Action("create", path, content) for path, (_, content) in model.items()]
    repo.commit("main", actions, message="init", when=START, **AUTHOR)
    return repo, model


NAMES = st.one_of(
    st.integers(0, 400).map(lambda k: f"wide/n{k:03d}"),
    st.integers(0, 400).map(lambda k: f"wide/n{k:03d}.txt"),  # sorts before "n123/"
    st.integers(0, 400).map(lambda k: f"wide/n{k:03d}/inner"),  # a directory in the wide one
    st.sampled_from(["a.txt", "d/b.txt", "d/e/c.txt", "top.txt"]),
)
STEP = st.tuples(
    st.sampled_from(["create", "update", "delete", "move", "chmod"]),
    NAMES,
    NAMES,
    st.integers(0, 3),
)


def blocked(model: Model, path: str) -> bool:
    """Whether ``path`` cannot be created: it exists, is a directory, or sits under a file."""
    parts = path.split("/")
    if any("/".join(parts[:n]) in model for n in range(1, len(parts))):
        return True
    return path in model or any(other.startswith(path + "/") for other in model)


def action_for(model: Model, step: tuple[str, str, str, int]) -> Action | None:
    """A valid action for ``step`` against ``model`` (None when there is none)."""
    kind, path, other, pick = step
    content = b"v%d\n" % pick
    existing = sorted(model)
    if kind == "create":
        return None if blocked(model, path) else Action("create", path, content)
    target = existing[zlib.crc32(path.encode()) % len(existing)] if existing else None
    if target is None:
        return None
    if kind == "update":
        return Action("update", target, content + target.encode())
    if kind == "delete":
        return Action("delete", target)
    if kind == "chmod":
        return Action("chmod", target, execute_filemode=bool(pick % 2))
    if other == target or blocked({k: v for k, v in model.items() if k != target}, other):
        return None
    return Action("move", other, previous_path=target, content=None if pick else b"moved\n")


def apply(model: Model, action: Action) -> None:
    if action.action == "create":
        model[action.file_path] = (MODE_FILE, action.content or b"")
    elif action.action == "update":
        model[action.file_path] = (model[action.file_path][0], action.content or b"")
    elif action.action == "delete":
        del model[action.file_path]
    elif action.action == "chmod":
        mode = MODE_EXEC if action.execute_filemode else MODE_FILE
        model[action.file_path] = (mode, model[action.file_path][1])
    else:
        mode, content = model.pop(action.previous_path or "")
        model[action.file_path] = (mode, content if action.content is None else action.content)


def check_reads(repo: Repository, model: Model) -> None:
    listed = {e.path: e for e in repo.tree("main", "", recursive=True) if e.type == "blob"}
    assert sorted(listed) == sorted(model)
    for path, (mode, content) in model.items():
        assert listed[path].mode == f"{mode:06o}"
        assert listed[path].id == Blob.from_string(content).id.decode()
    for path in sorted(model)[::37]:
        assert repo.raw("main", path) == model[path][1]
        info = repo.read_file("main", path)
        assert info.execute_filemode == (model[path][0] == MODE_EXEC)
        walked = repo.commits("main", path=path)[0].id
        assert repo.last_commit_id("main", path) == info.last_commit_id == walked


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(st.lists(STEP, min_size=1, max_size=4), min_size=1, max_size=12))
def test_random_actions_give_gits_ids_and_reads(commits: list[list[tuple]]) -> None:
    repo, model = start_repo()
    for number, steps in enumerate(commits, start=1):
        actions: list[Action] = []
        for step in steps:
            action = action_for(model, step)
            if action is None or any(
                action.file_path == a.file_path or action.previous_path == a.file_path
                for a in actions
            ):
                continue
            trial = dict(model)
            apply(trial, action)
            if trial == model:
                continue
            actions.append(action)
            model = trial
        if not actions or reference_tree(model) == repo.get_commit("main").tree_id.encode():
            continue
        when = START + dt.timedelta(minutes=number)
        repo.commit("main", actions, message=f"c{number}", when=when, **AUTHOR)
        assert repo.get_commit("main").tree_id.encode() == reference_tree(model)
    check_reads(repo, model)
    again = pickle.loads(pickle.dumps(repo))
    assert again == repo and copy.deepcopy(repo) == repo
    assert again.tree("main", "wide") == repo.tree("main", "wide")


def test_a_wide_directory_is_chunked_and_versions_share_chunks() -> None:
    repo, _ = start_repo()
    before = repo.get_commit("main").tree_id.encode()
    add = [Action("create", "wide/n150.txt", b"new\n")]
    repo.commit("main", add, message="one more", when=START, **AUTHOR)
    after = repo.get_commit("main").tree_id.encode()
    old = repo._store.raw.tree(repo._tree_get(before, b"wide")[1])  # type: ignore[index]
    new = repo._store.raw.tree(repo._tree_get(after, b"wide")[1])  # type: ignore[index]
    assert isinstance(old, chunks.ChunkedTree) and isinstance(new, chunks.ChunkedTree)
    kept = set(map(id, old.chunks)) & set(map(id, new.chunks))
    assert len(kept) == len(old.chunks) - 1  # one chunk rewritten, the others the same bytes
    kind, raw = repo.object_store.get_raw(chunks.tree_id(new))
    assert (kind, len(raw)) == (2, sum(map(len, new.chunks)))
    assert b"n150.txt\0" in raw


def test_raw_trees_stored_through_the_mapping_are_chunked_and_read_back() -> None:
    repo, _ = start_repo()
    wide = repo._tree_get(repo.get_commit("main").tree_id.encode(), b"wide")
    assert wide is not None
    kind, raw = repo.object_store.raw[wide[1]]
    other = Repository("main")
    other.object_store.raw[wide[1]] = (kind, raw)  # as a push or a bundle stores it
    assert isinstance(other._store.raw.tree(wide[1]), chunks.ChunkedTree)
    assert other.object_store.raw[wide[1]] == (kind, raw)
    assert other._tree_get(wide[1], b"n123") == repo._tree_get(wide[1], b"n123")


def test_a_wide_change_index_is_a_trie_sharing_unchanged_buckets() -> None:
    items = {b"n%04d" % k: k for k in range(1000)}
    trie = hashtrie.build(items)
    changed = hashtrie.updated(trie, {b"n0001": None, b"new": -1})
    assert dict(hashtrie.items(changed)) == {
        **{k: v for k, v in items.items() if k != b"n0001"},
        b"new": -1,
    }
    assert hashtrie.get(changed, b"n0500") == 500 and hashtrie.get(changed, b"n0001") is None
    assert isinstance(trie, tuple) and isinstance(changed, tuple)
    assert sum(a is b for a, b in zip(trie, changed, strict=True)) >= len(trie) - 2


def fixed_history() -> Repository:
    """A wide directory filled past a chunk's bound, emptied under it, a file turned into
    a directory of the same name, and moves across chunks."""
    repo, _ = start_repo()
    steps = [
        [Action("create", f"wide/n010-{k:03d}", b"x%d\n" % k) for k in range(100)],
        [Action("delete", f"wide/n{k:03d}") for k in range(100, 160)],
        [Action("delete", "wide/n005"), Action("create", "wide/n005/inner", b"in\n")],
        [Action("move", "wide/n299.txt", previous_path="wide/n000")],
        [Action("chmod", "wide/n200", execute_filemode=True)],
        [Action("delete", f"wide/n010-{k:03d}") for k in range(100)],
    ]
    for number, actions in enumerate(steps, start=1):
        when = START + dt.timedelta(minutes=number)
        repo.commit("main", actions, message=f"s{number}", when=when, **AUTHOR)
    return repo


FIXED_IDS = [  # newest first, as the engine gave them before trees were chunked
    "8dee3f27a2fdea17d795ccebde62c5257d296290",
    "13134e9cb2034f3575aaf1e82e288352fb49aab5",
    "cfce70ed3883c0a221e4e20d26868a84879a2ab6",
    "838c20ff6f2e52be9bf9bb6306ee2494baf7050c",
    "07fd8d0bc2540fdd3fc17cacfa998dc0ad40c6d0",
    "fe9e0cf1409a95830707c8e38de91433b89abb4b",
    "61229a905c608a0b85964ae673c32edfe386715c",
]


def test_a_fixed_history_keeps_the_ids_it_had_before_chunking() -> None:
    repo = fixed_history()
    assert [c.id for c in repo.commits("main")] == FIXED_IDS
    wide = repo._store.raw.tree(repo._tree_get(repo._graph(FIXED_IDS[5].encode())[0], b"wide")[1])  # type: ignore[index]
    assert isinstance(wide, chunks.ChunkedTree) and len(wide.chunks) > 5  # split past the bound
    for commit in repo.commits("main"):
        listed = repo.tree(commit.id, "", recursive=True)
        model = {
            e.path: (int(e.mode, 8), repo.raw(commit.id, e.path))
            for e in listed
            if e.type == "blob"
        }
        assert reference_tree(model) == commit.tree_id.encode()


def test_chunks_stay_chunks_and_shared_through_pickles_and_forks() -> None:
    repo, _ = start_repo()
    wide = repo._tree_get(repo.get_commit("main").tree_id.encode(), b"wide")
    assert wide is not None
    for other in (pickle.loads(pickle.dumps(repo)), copy.deepcopy(repo)):
        kept = other._store.raw.tree(wide[1])
        assert isinstance(kept, chunks.ChunkedTree)
        assert other.object_store.raw[wide[1]] == repo.object_store.raw[wide[1]]
        assert other.unchanged_from(repo) and other == repo
    fork = copy.deepcopy(repo)
    assert fork._store.raw.tree(wide[1]) is repo._store.raw.tree(wide[1])  # shared, not copied


def test_a_bundle_round_trip_keeps_ids_and_chunks() -> None:
    repo = fixed_history()
    copied = bundle.read(bundle.write(repo), "main")
    assert [c.id for c in copied.commits("main")] == FIXED_IDS
    assert copied == repo
    wide = copied._tree_get(copied.get_commit("main").tree_id.encode(), b"wide")
    assert wide is not None
    assert isinstance(copied._store.raw.tree(wide[1]), chunks.ChunkedTree)
    more = [Action("create", "wide/n150.txt", b"after\n")]
    copied.commit("main", more, message="after", when=START, **AUTHOR)
    repo.commit("main", more, message="after", when=START, **AUTHOR)
    assert copied.resolve("main") == repo.resolve("main")


def test_a_wide_tree_out_of_order_or_malformed_is_kept_as_it_came() -> None:
    entries = [chunks.serialise(b"f%03d" % n, (MODE_FILE, b"%040x" % n)) for n in range(200)]
    for raw in (b"".join(reversed(entries)), b"".join(entries) + b"100644 cut\0abc"):
        repo = Repository("main")
        sha = chunks.tree_id(raw)
        repo.object_store.raw[sha] = (2, raw)
        assert repo._store.raw.tree(sha) is raw
        assert repo.object_store.get_raw(sha) == (2, raw)
