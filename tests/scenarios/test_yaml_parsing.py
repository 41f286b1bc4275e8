"""Parsing scenario text: libyaml when PyYAML has it, PyYAML's own loader otherwise and
for every text libyaml does not take, so that problems read the same with or without
libyaml (wording and lines), and malformed text is a problem, never a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from fakeservice import FakeService
from fakeservice.scenarios import source
from fakeservice.scenarios.check import check
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.source import TOO_DEEP, from_text


@pytest.fixture(params=["libyaml", "pure"])
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of parsing: libyaml first (when installed), or PyYAML alone."""
    if request.param == "libyaml":
        if not yaml.__with_libyaml__:
            pytest.skip("PyYAML without libyaml")
    else:
        monkeypatch.setattr(source, "_FAST", None)
    return str(request.param)


def problems_of(text: str) -> list[tuple[int | None, str]]:
    with pytest.raises(ScenarioError) as caught:
        from_text(text)
    return [(p.line, p.message) for p in caught.value.details]


MALFORMED = [
    ("users: [", [(1, "not valid YAML: expected the node content, but found '<stream end>'")]),
    ("a: [1, 2", [(1, "not valid YAML: expected ',' or ']', but got '<stream end>'")]),
    ("a: b: c", [(1, "not valid YAML: mapping values are not allowed here")]),
    ("users:\n- a\n  b: 1\n", [(3, "not valid YAML: mapping values are not allowed here")]),
    ("\tusers: 1", [(1, "not valid YAML: found character '\\t' that cannot start any token")]),
    ("a: &x 1\nb: *y", [(2, "not valid YAML: found undefined alias 'y'")]),
    ("? [a]\n: 1", [(1, "not valid YAML: found unhashable key")]),
    (
        "x: !!python/object:os.system a",
        [
            (
                1,
                "not valid YAML: could not determine a constructor for the tag "
                "'tag:yaml.org,2002:python/object:os.system'",
            )
        ],
    ),
    ("a: 2024-13-45", [(None, "not valid YAML: month must be in 1..12")]),
    ("a: " + "[" * 2000 + "]" * 2000, [(None, TOO_DEEP)]),
    ("a: " + "[" * 80 + "]" * 80, [(None, TOO_DEEP)]),
    ("- a\n- b\n", [(1, "a scenario must be a mapping at the top level")]),
]


@pytest.mark.parametrize(("text", "expected"), MALFORMED)
def test_malformed_text_reads_the_same_with_or_without_libyaml(
    loader: str, text: str, expected: list[tuple[int | None, str]]
) -> None:
    assert problems_of(text) == expected


@pytest.mark.parametrize("char", ["\x07", "\ud800"])
def test_characters_yaml_refuses_are_a_problem_not_a_crash(loader: str, char: str) -> None:
    ((line, message),) = problems_of(f"users: {char}\n")
    assert line is None
    assert message.startswith(f"not valid YAML: unacceptable character #x{ord(char):04x}")


def loaders_used(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """The loader classes parsing goes through from now on, in order."""
    used: list[type] = []
    composed = source._composed

    def noting(text: str, loader_class: Any, *, quick: bool) -> source.Parsed:
        used.append(loader_class)
        return composed(text, loader_class, quick=quick)

    monkeypatch.setattr(source, "_composed", noting)
    return used


def test_the_fallback_is_pyyaml_own_loader_when_libyaml_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(source, "_FAST", None)
    used = loaders_used(monkeypatch)
    assert from_text("users: [{username: a}]\n").data == {"users": [{"username": "a"}]}
    assert used == [yaml.SafeLoader]


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")
def test_libyaml_parses_when_pyyaml_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    used = loaders_used(monkeypatch)
    from_text("users: [{username: a}]\n")
    assert used == [yaml.CSafeLoader]
    with pytest.raises(ScenarioError):
        from_text("users: [\n")
    assert used[1:] == [yaml.CSafeLoader, yaml.SafeLoader]  # refused, then worded


def _nodes(node: yaml.Node | None) -> list[tuple[Any, ...]]:
    """Every node of a tree with its tag, scalar value and position, in document order."""
    if node is None:
        return []
    out: list[tuple[Any, ...]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        mark = current.start_mark
        value = current.value if isinstance(current, yaml.ScalarNode) else None
        out.append((type(current).__name__, current.tag, value, mark.line, mark.column))
        if isinstance(current, yaml.MappingNode):
            stack.extend(child for pair in reversed(current.value) for child in reversed(pair))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(reversed(current.value))
    return out


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    fast = from_text(text)
    with monkeypatch.context() as patched:
        patched.setattr(source, "_FAST", None)
        pure = from_text(text)
    return fast, pure


SCENARIO_TEXT = """\
clock: {mode: manual, start: 2024-01-02T03:04:05Z}
common: &common {visibility: private, description: "shared"}
users:
  - username: alice
    created_at: 2023-05-06
    bio: |
      two
      lines
  - {username: bob, admin: yes, projects_limit: 0x10}
projects:
  - <<: *common
    path: alice/p
    topics: [a, 'b', "c"]
  - path: alice/q
    star_count: 1_000
"""


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")
def test_both_loaders_give_the_same_data_and_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, pure = _both(SCENARIO_TEXT, monkeypatch)
    assert fast.data == pure.data
    assert fast.data["projects"][0]["visibility"] == "private"
    assert _nodes(fast.node) == _nodes(pure.node)


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")
def test_the_checker_says_the_same_with_or_without_libyaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "users:\n  - username: a\n  - usernme: b\n"
        "projects:\n  - {path: a/p, visibilty: public}\n  - path: a/q\n    path: a/r\n",
        encoding="utf-8",
    )
    fast = [str(p) for p in check(path)]
    monkeypatch.setattr(source, "_FAST", None)
    assert [str(p) for p in check(path)] == fast
    assert fast == [
        f"{path}:3: users[1].usernme: unknown key 'usernme' (did you mean 'username'?)",
        f"{path}:3: users[1]: username is required",
        f"{path}:5: projects[0].visibilty: unknown key 'visibilty' (did you mean 'visibility'?)",
        f"{path}:7: projects[1].path: key 'path' appears twice",
    ]


plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text("abcxyz_", min_size=1, max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML without libyaml")
@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text("abcuxyz", min_size=1, max_size=6), plain, max_size=5))
def test_any_dumped_mapping_parses_alike(data: dict[str, Any]) -> None:
    text = yaml.safe_dump(data, allow_unicode=True)
    fast = from_text(text)
    saved = source._FAST
    source._FAST = None
    try:
        pure = from_text(text)
    finally:
        source._FAST = saved
    assert fast.data == pure.data == data
    assert _nodes(fast.node) == _nodes(pure.node)


def test_a_bad_date_over_http_is_a_400_that_changes_nothing() -> None:
    svc = FakeService()
    before = len(svc.store.tables["users"])
    response = svc.request(
        "POST",
        "/_fake/scenario",
        body=b"users: [{username: late, created_at: 2024-13-45}]\n",
        headers={"Content-Type": "text/yaml"},
    )
    assert response.status == 400
    assert response.json() == {
        "error": "the scenario is invalid",
        "problems": [
            {
                "file": "<request>",
                "line": None,
                "where": "",
                "message": "not valid YAML: month must be in 1..12",
            }
        ],
    }
    assert len(svc.store.tables["users"]) == before


EDGE_CASES = [
    "a: &x {b: [1, 2]}\nc: *x\nd: [*x, *x]\n",
    "base: &b {x: 1, y: [a]}\np: {<<: *b, y: 2}\nq:\n  <<: [*b, {z: 3}]\n",
    "l: &l [1, *l]\n",
    "m: &m {self: *m}\n",
    "t: 2024-01-02\nu: 2024-01-02T03:04:05Z\nv: 1_000\nw: 0x1f\nx: .inf\ny: ~\nz: yes\n",
    "? 1\n: int key\n? 2024-01-01\n: date key\n? null\n: null key\n'=': eq\n",
    "s: !!set {a, b}\no: !!omap [{a: 1}, {b: 2}]\np: !!pairs [{a: 1}]\nb: !!binary aGk=\n",
    "a: !!str 1\nb: !!int '7'\nc: !!float 1\nd: ''\ne: \"\"\nf: |\n  x\n",
    "dup: 1\ndup: 2\nlist: [[], {}, [[{}]]]\n",
    "a: {b: &s x}\nc: *s\n",
]


def _same_shape(left: Any, right: Any, pairs: dict[int, int] | None = None) -> None:
    """``left == right``, and an object reached twice in one is one object in the other."""
    pairs = {} if pairs is None else pairs
    assert type(left) is type(right)
    if isinstance(left, dict | list):
        if id(left) in pairs:
            assert pairs[id(left)] == id(right)
            return
        pairs[id(left)] = id(right)
        if isinstance(left, dict):
            assert list(left) == list(right)
            for key in left:
                _same_shape(left[key], right[key], pairs)
        else:
            assert len(left) == len(right)
            for a, b in zip(left, right, strict=True):
                _same_shape(a, b, pairs)
    elif left == left:  # NaN aside
        assert left == right


def _constructed_both_ways(text: str, loader_class: Any) -> tuple[Any, Any]:
    from fakeservice.scenarios.construct import construct

    quick_loader, slow_loader = loader_class(text), loader_class(text)
    try:
        quick = construct(quick_loader, quick_loader.get_single_node())
        slow = slow_loader.construct_document(slow_loader.get_single_node())
    finally:
        quick_loader.dispose()
        slow_loader.dispose()
    return quick, slow


@pytest.mark.parametrize("text", EDGE_CASES)
def test_quick_construction_is_the_safe_constructors(loader: str, text: str) -> None:
    """Aliases (recursive ones too), merge keys, tags, timestamps, numbers and keys
    that are not strings come out as ``construct_document`` makes them."""
    loader_class = yaml.CSafeLoader if loader == "libyaml" else yaml.SafeLoader
    quick, slow = _constructed_both_ways(text, loader_class)
    _same_shape(quick, slow)
    _same_shape(from_text(text).data, slow)


shared_parts = st.lists(plain, min_size=1, max_size=4)


@settings(max_examples=100, deadline=None)
@given(shared_parts, st.lists(st.tuples(st.text("abc", min_size=1, max_size=3), st.integers(0, 3))))
def test_quick_construction_keeps_shared_objects_shared(
    parts: list[Any], picks: list[tuple[str, int]]
) -> None:
    """Data whose parts appear several times (dumped with anchors and aliases) comes
    back with the same sharing."""
    data = {key: parts[index % len(parts)] for key, index in picks}
    text = yaml.safe_dump({"top": data, "again": list(data.values())})
    for loader_class in {getattr(yaml, "CSafeLoader", yaml.SafeLoader), yaml.SafeLoader}:
        quick, slow = _constructed_both_ways(text, loader_class)
        _same_shape(quick, slow)
