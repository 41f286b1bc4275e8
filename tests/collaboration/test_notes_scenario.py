"""The ``notes`` (with ``thread``) and ``award_emoji`` scenario keys: loaded as the API
would have made them, and refused with their place (and line) when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakeservice import FakeService
from fakeservice.scenarios.problems import ScenarioError

SCENARIO = """\
extends: default
projects:
  - path: acme/talk
    files: {a.txt: "a\\n"}
    commits:
      - {message: Add b, branch: topic, from: main, files: {b.txt: "b\\n"}}
    issues: [{title: Bug}]
    merge_requests: [{title: Topic, source_branch: topic, author: alice}]
    notes:
      - {issue: 1, body: Seen it, author: bob}
      - {merge_request: 1, body: Why?, author: alice, thread: naming}
      - {merge_request: 1, body: Because, author: bob, thread: naming}
    award_emoji:
      - {merge_request: 1, name: "+1", author: bob}
      - {issue: 1, name: tada}
"""
BASE = "/projects/acme%2Ftalk"


def get(svc: FakeService, path: str) -> object:
    return svc.request("GET", BASE + path, token="root-token").json()


def test_threads_and_awards_from_a_scenario(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(SCENARIO)
    svc = FakeService(tmp_path / "s.yaml")
    threads = get(svc, "/merge_requests/1/discussions")
    assert isinstance(threads, list) and len(threads) == 1
    assert threads[0]["individual_note"] is False
    assert [(n["body"], n["type"], n["resolvable"]) for n in threads[0]["notes"]] == [
        ("Why?", "DiscussionNote", True),
        ("Because", "DiscussionNote", True),
    ]
    issue_threads = get(svc, "/issues/1/discussions")
    assert isinstance(issue_threads, list) and issue_threads[0]["individual_note"] is True
    mr = get(svc, "/merge_requests/1")
    assert isinstance(mr, dict) and (mr["upvotes"], mr["user_notes_count"]) == (1, 2)
    awarded = get(svc, "/issues/1/award_emoji")
    assert isinstance(awarded, list) and [a["name"] for a in awarded] == ["tada"]


@pytest.mark.parametrize(
    ("entry", "line", "where", "message"),
    [
        ("{issue: 1, name: nonsense}", 10, "projects[0].award_emoji[0].name", "not a valid emoji"),
        ("{issue: 9, name: tada}", 10, "projects[0].award_emoji[0]", "no Issue with that iid"),
        ("{name: tada}", 10, "projects[0].award_emoji[0]", ""),
    ],
)
def test_bad_awards_are_reported(
    tmp_path: Path, entry: str, line: int, where: str, message: str
) -> None:
    text = (
        "extends: default\nprojects:\n  - path: acme/talk\n    files: {a.txt: a}\n"
        "    commits:\n      - {message: b, branch: t, from: main, files: {b: b}}\n"
        "    issues: [{title: Bug}]\n    merge_requests: [{title: T, source_branch: t}]\n"
        f"    award_emoji:\n      - {entry}\n"
    )
    (tmp_path / "s.yaml").write_text(text)
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml")
    found = {(d.line, d.where) for d in caught.value.details}
    assert (line, where) in found
    assert message in str(caught.value)


def test_twice_the_same_award_is_reported(tmp_path: Path) -> None:
    text = (
        "extends: default\nprojects:\n  - path: acme/talk\n    issues: [{title: Bug}]\n"
        "    award_emoji: [{issue: 1, name: tada}, {issue: 1, name: tada}]\n"
    )
    (tmp_path / "s.yaml").write_text(text)
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml")
    assert "Name has already been taken" in str(caught.value)
