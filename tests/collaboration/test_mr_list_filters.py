"""Merge request list filters fed by other areas: ``environment``, ``deployed_before`` and
``deployed_after`` (a merged merge request is deployed by a successful deployment whose
commit contains its merge commit), ``approver_ids`` (users the approval rules name),
``approved_by_ids`` and ``approved_by_usernames``; raw HTTP and python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, user_id

MRS = f"/projects/{SHOP}/merge_requests"
DEPLOY_CI = """\
test:
  script: [make test]
deploy:
  stage: deploy
  script: [make deploy]
  environment: production
"""


def iids(svc: FakeService, path: str = MRS, token: str = "maya-token", **query: Any) -> list[int]:
    found = call(svc, "GET", path, token, query=query)
    assert found.status == 200, found.body
    return sorted(m["iid"] for m in body(found))


def open_mr(svc: FakeService, source: str = "feature", title: str = "Checkout") -> None:
    data = {"title": title, "source_branch": source, "target_branch": "main"}
    assert call(svc, "POST", MRS, "dora-token", json_body=data).status == 201


def merge_and_deploy(svc: FakeService, iid: int = 1) -> None:
    """Open ``feature`` → ``main`` as ``iid``, merge it, then deploy main to production."""
    svc.runner.set_mode("instant")
    open_mr(svc)
    merged = call(svc, "PUT", f"{MRS}/{iid}/merge", "maya-token")
    assert merged.status == 200, merged.body
    ci = {
        "branch": "main",
        "commit_message": "Deploy",
        "actions": [{"action": "update", "file_path": ".gitlab-ci.yml", "content": DEPLOY_CI}],
    }
    assert (
        call(svc, "POST", f"/projects/{SHOP}/repository/commits", "maya-token", json_body=ci).status
        == 201
    )
    svc.clock.advance(seconds=60)
    made = call(svc, "POST", f"/projects/{SHOP}/pipeline", "maya-token", json_body={"ref": "main"})
    assert made.status == 201, made.body
    deployments = body(
        call(svc, "GET", f"/projects/{SHOP}/deployments", "maya-token", query={"status": "success"})
    )
    assert deployments and deployments[0]["environment"]["name"] == "production"


def test_environment_and_deployed_bounds(svc: FakeService) -> None:
    call(
        svc,
        "POST",
        f"/projects/{SHOP}/repository/branches",
        "maya-token",
        query={"branch": "other", "ref": "main"},
    )
    open_mr(svc, "other", "Unmerged")  # iid 1 stays open
    merge_and_deploy(svc, iid=2)
    assert iids(svc, environment="production") == [2]
    assert iids(svc, environment="staging") == []
    assert iids(svc, deployed_after="2026-01-01T09:00:30Z") == [2]
    assert iids(svc, deployed_after="2026-01-01T10:00:00Z") == []
    assert iids(svc, deployed_before="2026-01-01T10:00:00Z") == [2]
    assert iids(svc, deployed_before="2026-01-01T09:00:30Z") == []
    assert iids(svc, "/merge_requests", environment="production", scope="all") == [2]
    assert iids(svc, "/groups/acme%2Fshopfloor/merge_requests", environment="production") == [2]
    bad = call(svc, "GET", MRS, "maya-token", query={"deployed_after": "soon"})
    assert (bad.status, body(bad)) == (400, {"error": "deployed_after is invalid"})


def test_approver_and_approved_by_filters(svc: FakeService) -> None:
    open_mr(svc)
    maya, rita = user_id(svc, "maya"), user_id(svc, "rita")
    assert iids(svc, approver_ids="None") == [1]
    assert iids(svc, approver_ids="Any") == []
    rule = {"name": "Leads", "approvals_required": 1, "user_ids": [maya]}
    assert (
        call(svc, "POST", f"/projects/{SHOP}/approval_rules", "maya-token", json_body=rule).status
        == 201
    )
    assert iids(svc, approver_ids="Any") == [1]
    assert iids(svc, **{"approver_ids[]": [str(maya)]}) == [1]
    assert iids(svc, **{"approver_ids[]": [str(maya), str(rita)]}) == []
    assert iids(svc, approved_by_ids="None") == [1]
    assert call(svc, "POST", f"{MRS}/1/approve", "maya-token").status == 201
    assert iids(svc, approved_by_ids="Any") == [1]
    assert iids(svc, **{"approved_by_ids[]": [str(maya)]}) == [1]
    assert iids(svc, **{"approved_by_ids[]": [str(rita)]}) == []
    assert iids(svc, **{"approved_by_usernames[]": ["maya"]}) == [1]
    assert iids(svc, **{"approved_by_usernames[]": ["rita"]}) == []
    assert iids(svc, **{"approved_by_usernames[]": ["nobody"]}) == []
    assert iids(svc, approved_by_usernames="None") == []
    both = call(
        svc,
        "GET",
        MRS,
        "maya-token",
        query={"approved_by_ids": "Any", "approved_by_usernames": "Any"},
    )
    assert (both.status, body(both)) == (
        400,
        {"error": "approved_by_ids, approved_by_usernames are mutually exclusive"},
    )


def test_python_gitlab_environment_filter(svc: FakeService) -> None:
    merge_and_deploy(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="maya-token")
        assert [m.iid for m in gl.mergerequests.list(environment="production", scope="all")] == [1]
        project = gl.projects.get("acme/shopfloor/shop")
        assert project.mergerequests.list(environment="staging") == []
        assert [m.iid for m in project.mergerequests.list(approved_by_usernames=["nobody"])] == []
