"""Issue links (``/projects/:id/issues/:iid/links``): create in each direction and type,
seen from both issues, get, delete from either side, the service's 404/409/403 answers
with state untouched, visibility of confidential and unreadable targets, the
``issue_links`` scenario key, and python-gitlab (``issue.links``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gitlab
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call

from fakeservice import FakeService
from fakeservice.core.clock import iso
from fakeservice.scenarios.problems import ScenarioError

from .conftest import SHOP, new_service

ISSUES = f"/projects/{SHOP}/issues"
NO_MATCH = {"message": "No matching issue found. Make sure that you are adding a valid issue URL."}
LINK_KEYS = {"issue_link_id", "link_type", "link_created_at", "link_updated_at"}


def link(svc: FakeService, iid: int, target: Any, token: str = "dora-token", **more: Any) -> Any:
    data = {"target_project_id": SHOP.replace("%2F", "/"), "target_issue_iid": target, **more}
    return call(svc, "POST", f"{ISSUES}/{iid}/links", token, json_body=data)


def links(svc: FakeService, iid: int, token: str = "dora-token") -> list[tuple[int, str]]:
    response = call(svc, "GET", f"{ISSUES}/{iid}/links", token)
    assert response.status == 200, response.body
    return [(item["iid"], item["link_type"]) for item in body(response)]


def test_a_link_shows_from_both_issues_and_goes_from_both(svc: FakeService) -> None:
    svc.clock.advance(seconds=30)
    created = link(svc, 1, 2)
    assert created.status == 201, created.body
    answer = body(created)
    assert sorted(answer) == ["link_type", "source_issue", "target_issue"]
    assert (answer["source_issue"]["iid"], answer["target_issue"]["iid"]) == (1, 2)
    assert answer["link_type"] == "relates_to"
    listed = body(call(svc, "GET", f"{ISSUES}/1/links", "dora-token"))
    (item,) = listed
    assert set(item) >= LINK_KEYS and (item["iid"], item["title"]) == (2, "Add coupons")
    assert item["link_created_at"] == item["link_updated_at"] == iso(svc.clock.now())
    assert links(svc, 2) == [(1, "relates_to")]
    link_id = item["issue_link_id"]
    for iid in (1, 2):
        one = call(svc, "GET", f"{ISSUES}/{iid}/links/{link_id}", "dora-token")
        assert (one.status, body(one)) == (200, answer)
    assert call(svc, "GET", f"{ISSUES}/3/links/{link_id}", "maya-token").status == 404
    deleted = call(svc, "DELETE", f"{ISSUES}/2/links/{link_id}", "dora-token")
    assert (deleted.status, body(deleted)) == (200, answer)
    assert links(svc, 1) == links(svc, 2) == []
    again = call(svc, "DELETE", f"{ISSUES}/1/links/{link_id}", "dora-token")
    assert (again.status, body(again)) == (404, {"message": "404 Not found"})


def test_blocks_and_is_blocked_by_read_from_each_side(svc: FakeService) -> None:
    created = body(link(svc, 1, 2, link_type="is_blocked_by"))
    # stored as the reverse ``blocks``, as the service does
    assert (created["source_issue"]["iid"], created["target_issue"]["iid"]) == (2, 1)
    assert created["link_type"] == "blocks"
    assert links(svc, 1) == [(2, "is_blocked_by")]
    assert links(svc, 2) == [(1, "blocks")]
    assert body(link(svc, 2, 3, token="maya-token", link_type="blocks"))["link_type"] == "blocks"
    assert links(svc, 2, "maya-token") == [(1, "blocks"), (3, "blocks")]
    assert links(svc, 3, "maya-token") == [(2, "is_blocked_by")]


def test_refusals_answer_as_the_service_and_change_nothing(svc: FakeService) -> None:
    assert link(svc, 1, 2).status == 201
    for target, more, status, answer in (
        (2, {}, 409, {"message": "Issue(s) already assigned"}),
        (1, {}, 404, NO_MATCH),
        (99, {}, 404, {"message": "404 Not found"}),
        (2, {"target_project_id": "acme/nope"}, 404, {"message": "404 Project Not Found"}),
        (2, {"target_project_id": 999999}, 404, {"message": "404 Project Not Found"}),
    ):
        response = link(svc, 1, target, **more)
        assert (response.status, body(response)) == (status, answer), (target, more)
    duplicate = link(svc, 2, 1)
    assert (duplicate.status, body(duplicate)) == (409, {"message": "Issue(s) already assigned"})
    for data in (
        {"target_project_id": SHOP, "target_issue_iid": 2, "link_type": "duplicates"},
        {"target_project_id": SHOP},
        {"target_issue_iid": 2},
        {"target_project_id": SHOP, "target_issue_iid": "abc"},
        {"target_project_id": SHOP, "target_issue_iid": [2]},
    ):
        response = call(svc, "POST", f"{ISSUES}/1/links", "dora-token", json_body=data)
        assert response.status == 400, data
    bad = call(
        svc,
        "POST",
        f"{ISSUES}/1/links",
        "dora-token",
        body=b"{",
        headers={"Content-Type": "application/json"},
    )
    assert bad.status == 400
    assert call(svc, "GET", f"{ISSUES}/1/links/abc", "dora-token").status == 400
    assert call(svc, "GET", f"{ISSUES}/1/links/999999", "dora-token").status == 404
    assert call(svc, "GET", f"{ISSUES}/99/links", "dora-token").status == 404
    assert call(svc, "GET", f"{ISSUES}/1/links", None).status == 401
    otto = call(svc, "GET", f"{ISSUES}/1/links", "otto-token")
    assert (otto.status, body(otto)) == (404, {"message": "404 Project Not Found"})
    assert links(svc, 1) == [(2, "relates_to")]


def test_readers_see_only_what_they_may_read_and_guests_may_link(svc: FakeService) -> None:
    assert link(svc, 1, 3, token="maya-token").status == 201
    assert links(svc, 1, "maya-token") == [(3, "relates_to")]
    assert links(svc, 1, "gus-token") == []  # the confidential issue stays hidden
    assert link(svc, 1, 2, token="gus-token").status == 201
    assert links(svc, 1, "gus-token") == [(2, "relates_to")]
    # another project: readable to everyone (public), but dora is no member there
    website = call(svc, "POST", "/projects/acme%2Fwebsite/issues", json_body={"title": "Site"})
    assert website.status == 201
    response = link(svc, 2, 1, target_project_id="acme/website")
    assert (response.status, body(response)) == (404, NO_MATCH)
    assert link(svc, 2, 1, token="root-token", target_project_id="acme/website").status == 201
    assert (1, "relates_to") in links(svc, 2)
    seen = body(call(svc, "GET", "/projects/acme%2Fwebsite/issues/1/links", "carol-token"))
    assert seen == []  # carol cannot read the private shop
    mine = body(call(svc, "GET", "/projects/acme%2Fwebsite/issues/1/links", "maya-token"))
    assert [(i["project_id"], i["iid"]) for i in mine] == [(shop_id(svc), 2)]


def shop_id(svc: FakeService) -> int:
    return body(call(svc, "GET", f"/projects/{SHOP}"))["id"]


LINKED = """\
extends: default
projects:
  - path: acme/linked
    issues: [{title: One}, {title: Two}]
    issue_links:
      - {issue: 1, target_issue: 2, link_type: blocks}
      - {issue: 2, target_issue: 1, target_project: acme/other}
  - path: acme/other
    issues: [{title: Elsewhere}]
"""


def test_issue_links_from_a_scenario(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(LINKED)
    svc = FakeService(tmp_path / "s.yaml")
    got = svc.request("GET", "/projects/acme%2Flinked/issues/2/links", token="root-token").json()
    assert [(i["title"], i["link_type"]) for i in got] == [
        ("One", "is_blocked_by"),
        ("Elsewhere", "relates_to"),
    ]


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("{issue: 1, target_issue: 9}", "unknown issue 9"),
        ("{issue: 1, target_issue: 1}", "cannot be linked to itself"),
        ("{issue: 1, target_issue: 2, target_project: acme/none}", "unknown project"),
        ("{issue: 1, target_issue: 2, link_type: duplicates}", "link_type"),
        ("{issue: 1}", "target_issue"),
    ],
)
def test_bad_issue_links_in_a_scenario(tmp_path: Path, entry: str, problem: str) -> None:
    text = f"extends: default\nprojects:\n  - path: acme/linked\n    issues: [{{title: A}}, {{title: B}}]\n    issue_links:\n      - {entry}\n"
    (tmp_path / "s.yaml").write_text(text)
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml")
    assert problem in str(caught.value)


def test_python_gitlab_issue_links(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="dora-token", session=svc.requests_session())
    project = gl.projects.get("acme/shopfloor/shop")
    issue = project.issues.get(1)
    source, target = issue.links.create({"target_project_id": project.id, "target_issue_iid": 2})
    assert (source.iid, target.iid) == (1, 2)
    (linked,) = issue.links.list(get_all=True)
    assert (linked.iid, linked.link_type) == (2, "relates_to")
    assert [i.iid for i in project.issues.get(2).links.list(get_all=True)] == [1]
    with pytest.raises(gitlab.GitlabCreateError) as error:
        issue.links.create({"target_project_id": project.id, "target_issue_iid": 2})
    assert error.value.response_code == 409
    issue.links.delete(linked.issue_link_id)
    assert issue.links.list(get_all=True) == []


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([1, 2, 3]),
            st.sampled_from([1, 2, 3]),
            st.sampled_from(["relates_to", "blocks", "is_blocked_by"]),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_links_follow_a_model(steps: list[tuple[int, int, str, bool]]) -> None:
    """Whatever is linked and unlinked (from either side), each issue lists exactly the
    model's links with the type seen from its side; refused links change nothing."""
    svc = new_service()
    model: dict[frozenset[int], tuple[int, int, str, int]] = {}  # pair -> source, target, type, id
    for one, other, kind, unlink in steps:
        pair = frozenset((one, other))
        if unlink and pair in model and one != other:
            link_id = model.pop(pair)[3]
            response = call(svc, "DELETE", f"{ISSUES}/{one}/links/{link_id}", "maya-token")
            assert response.status == 200, response.body
            continue
        response = link(svc, one, other, token="maya-token", link_type=kind)
        if one == other:
            assert (response.status, body(response)) == (404, NO_MATCH)
        elif pair in model:
            assert response.status == 409
        else:
            assert response.status == 201, response.body
            source, target = (other, one) if kind == "is_blocked_by" else (one, other)
            stored = "blocks" if kind == "is_blocked_by" else kind
            listed = body(call(svc, "GET", f"{ISSUES}/{one}/links", "maya-token"))
            link_id = next(i["issue_link_id"] for i in listed if i["iid"] == other)
            model[pair] = (source, target, stored, link_id)
    for iid in (1, 2, 3):
        expected = []
        for source, target, stored, _ in sorted(model.values(), key=lambda v: v[3]):
            if iid in (source, target):
                seen = "is_blocked_by" if stored == "blocks" and iid == target else stored
                expected.append((target if iid == source else source, seen))
        assert links(svc, iid, "maya-token") == expected
