"""The line-by-line three-way merge behind ``has_conflicts`` and merge commits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call

from fakeservice import FakeService
from fakeservice.merge_requests.textmerge import merge_text

from .conftest import SHOP

BASE = b"one\ntwo\nthree\nfour\nfive\n"


def test_separate_hunks_merge() -> None:
    ours = b"ONE\ntwo\nthree\nfour\nfive\n"
    theirs = b"one\ntwo\nthree\nfour\nFIVE\n"
    assert merge_text(BASE, ours, theirs) == b"ONE\ntwo\nthree\nfour\nFIVE\n"


def test_touching_or_overlapping_hunks_conflict() -> None:
    assert (
        merge_text(BASE, b"one\nTWO\nthree\nfour\nfive\n", b"one\ntwo\nTHREE\nfour\nfive\n") is None
    )
    assert (
        merge_text(BASE, b"one\nTWO\nthree\nfour\nfive\n", b"one\n2\nthree\nfour\nfive\n") is None
    )


def test_the_same_change_on_both_sides_merges() -> None:
    both = b"one\nTWO\nthree\nfour\nfive\n"
    assert merge_text(BASE, both, both) == both
    assert merge_text(BASE, BASE + b"six\n", b"zero\n" + BASE) == b"zero\n" + BASE + b"six\n"


LINES = st.lists(st.sampled_from([b"a\n", b"b\n", b"c\n", b"d\n"]), max_size=8)


@settings(max_examples=200, deadline=None)
@given(LINES, LINES)
def test_one_sided_changes_always_merge(base: list[bytes], side: list[bytes]) -> None:
    joined, changed = b"".join(base), b"".join(side)
    assert merge_text(joined, changed, joined) == changed
    assert merge_text(joined, joined, changed) == changed


def test_merge_request_with_edits_to_different_lines(svc: FakeService) -> None:
    def edit(branch: str, content: str, token: str) -> None:
        data = {
            "branch": branch,
            "commit_message": f"edit {branch}",
            "actions": [{"action": "update", "file_path": "README.md", "content": content}],
        }
        assert (
            call(svc, "POST", f"/projects/{SHOP}/repository/commits", token, json_body=data).status
            == 201
        )

    edit("main", "# Shop\n\nline\n\nend\n", "maya-token")
    call(
        svc, "POST", f"/projects/{SHOP}/repository/branches", query={"branch": "top", "ref": "main"}
    )
    edit("top", "# The Shop\n\nline\n\nend\n", "dora-token")
    edit("main", "# Shop\n\nline\n\nthe end\n", "maya-token")
    data = {"title": "Top", "source_branch": "top", "target_branch": "main"}
    assert (
        call(svc, "POST", f"/projects/{SHOP}/merge_requests", "dora-token", json_body=data).status
        == 201
    )
    svc.clock.advance(seconds=5)
    shown = body(call(svc, "GET", f"/projects/{SHOP}/merge_requests/1"))
    assert (shown["merge_status"], shown["has_conflicts"]) == ("can_be_merged", False)
    assert (
        body(call(svc, "PUT", f"/projects/{SHOP}/merge_requests/1/merge", "maya-token"))["state"]
        == "merged"
    )
    raw = call(
        svc, "GET", f"/projects/{SHOP}/repository/files/README.md/raw", query={"ref": "main"}
    )
    assert raw.body == b"# The Shop\n\nline\n\nthe end\n"
