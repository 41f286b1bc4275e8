"""The collaboration scenario keys: loaded into state, and refused with line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakeservice import FakeService
from fakeservice.scenarios.problems import ScenarioError

BAD = """\
extends: default
projects:
  - path: acme/extra
    labels:
      - {name: bug, colour: red}
    issues:
      - {description: no title}
"""


def test_problems_carry_line_numbers(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "bad.yaml")
    found = {(d.line, d.where) for d in caught.value.details}
    assert (5, "projects[0].labels[0].colour") in found
    assert (7, "projects[0].issues[0]") in found


def test_unknown_milestone_is_reported(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "extends: default\nprojects:\n  - path: acme/extra\n    issues: [{title: a, milestone: nope}]\n"
    )
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml")
    assert "unknown milestone 'nope'" in str(caught.value)


MERGED = """\
extends: default
projects:
  - path: acme/review
    files: {a.txt: "a\\n"}
    commits:
      - {message: Add b, branch: topic, from: main, files: {b.txt: "b\\n"}}
      - {message: Add c, branch: other, from: main, files: {c.txt: "c\\n"}}
    issues: [{title: Bug}]
    merge_requests:
      - {title: Topic, source_branch: topic, description: "Closes #1", state: merged, author: alice}
      - {title: "Draft: Other", source_branch: other, labels: [wip], reviewers: [bob]}
"""


def test_merge_requests_from_a_scenario(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(MERGED)
    svc = FakeService(tmp_path / "s.yaml")
    listed = svc.request("GET", "/projects/acme%2Freview/merge_requests", token="root-token").json()
    assert [(m["iid"], m["state"], m["draft"]) for m in listed] == [
        (2, "opened", True),
        (1, "merged", False),
    ]
    assert listed[0]["labels"] == ["wip"] and listed[0]["reviewers"][0]["username"] == "bob"
    issue = svc.request("GET", "/projects/acme%2Freview/issues/1", token="root-token").json()
    assert issue["state"] == "closed"
    tree = svc.request("GET", "/projects/acme%2Freview/repository/tree", token="root-token").json()
    assert {e["name"] for e in tree} == {"a.txt", "b.txt"}


def test_unknown_source_branch_is_reported(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "extends: default\nprojects:\n  - path: acme/x\n    files: {a: a}\n"
        "    merge_requests: [{title: t, source_branch: nope}]\n"
    )
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml")
    assert "unknown branch 'nope'" in str(caught.value)


def test_deleting_a_project_leaves_nothing_behind() -> None:
    from .conftest import SHOP, new_service

    svc = new_service()
    svc.request(
        "POST",
        f"/projects/{SHOP}/merge_requests",
        token="maya-token",
        json_body={"title": "t", "source_branch": "feature", "target_branch": "main"},
    )
    svc.request(
        "POST", f"/projects/{SHOP}/issues/1/notes", token="maya-token", json_body={"body": "n"}
    )
    svc.request(
        "POST",
        f"/projects/{SHOP}/snippets",
        token="maya-token",
        json_body={"title": "s", "files": [{"file_path": "a", "content": "a"}]},
    )
    before = {
        name: len(svc.store.tables[name])
        for name in ("issues", "merge_requests", "notes", "snippets")
    }
    assert all(before.values())
    assert svc.request("DELETE", f"/projects/{SHOP}", token="root-token").status == 202
    tables = ("issues", "merge_requests", "notes", "snippets", "milestones", "approval_rules")
    assert {name: len(svc.store.tables[name]) for name in tables} == dict.fromkeys(tables, 0)
    assert [label.name for label in svc.store.tables["labels"]] == ["group-wide"]
    assert svc.request("GET", "/issues?scope=all", token="root-token").status == 200
    assert svc.request("GET", "/merge_requests?scope=all", token="root-token").status == 200
