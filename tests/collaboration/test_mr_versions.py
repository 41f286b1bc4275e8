"""Merge request diff versions (``/merge_requests/:iid/versions``): one on creation, one
per push that moves the source head, one per rebase, newest first, each single version
with its own commits and diffs; unknown ids and other merge requests' versions are 404.
Raw HTTP and python-gitlab (``mr.diffs``)."""

from __future__ import annotations

import gitlab
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call

from fakeservice import FakeService

from .conftest import new_service
from .test_merge_requests import MRS, branch_head, commit, open_mr

KEYS = [
    "id",
    "head_commit_sha",
    "base_commit_sha",
    "start_commit_sha",
    "created_at",
    "merge_request_id",
    "state",
    "real_size",
    "patch_id_sha",
]


def versions(svc: FakeService, iid: int = 1, token: str = "dora-token") -> list[dict]:
    response = call(svc, "GET", f"{MRS}/{iid}/versions", token)
    assert response.status == 200, response.body
    return body(response)


def test_creation_records_the_first_version(svc: FakeService) -> None:
    created = open_mr(svc)
    (first,) = versions(svc)
    assert list(first) == KEYS
    main = branch_head(svc, "main")
    assert first["head_commit_sha"] == created["sha"] == branch_head(svc, "feature")
    assert (first["base_commit_sha"], first["start_commit_sha"]) == (main, main)
    assert (first["merge_request_id"], first["state"], first["real_size"]) == (
        created["id"],
        "collected",
        "1",
    )
    assert len(first["patch_id_sha"]) == 40
    assert first["created_at"] == created["created_at"]
    one = body(call(svc, "GET", f"{MRS}/1/versions/{first['id']}", "dora-token"))
    assert {k: one[k] for k in KEYS} == first
    assert [c["title"] for c in one["commits"]] == ["Add checkout"]
    assert [(d["new_path"], d["new_file"]) for d in one["diffs"]] == [("checkout.py", True)]
    assert one["diffs"] == body(call(svc, "GET", f"{MRS}/1/diffs", "dora-token"))


def test_each_push_adds_a_version_newest_first_and_old_ones_keep_their_diff(
    svc: FakeService,
) -> None:
    open_mr(svc)
    old = versions(svc)[0]
    svc.clock.advance(seconds=60)
    pushed = commit(svc, "feature", "coupon.py", "COUPON = 1\n")
    newest, first = versions(svc)
    assert first == old and newest["id"] > old["id"]
    assert (newest["head_commit_sha"], newest["real_size"]) == (pushed, "2")
    assert newest["created_at"] > old["created_at"]
    assert newest["patch_id_sha"] != old["patch_id_sha"]
    again = body(call(svc, "GET", f"{MRS}/1/versions/{old['id']}", "dora-token"))
    assert [d["new_path"] for d in again["diffs"]] == ["checkout.py"]
    assert [c["title"] for c in again["commits"]] == ["Add checkout"]
    latest = body(call(svc, "GET", f"{MRS}/1/versions/{newest['id']}", "dora-token"))
    assert [c["title"] for c in latest["commits"]] == ["Change coupon.py", "Add checkout"]
    # a push to the target branch moves no source head: no version
    commit(svc, "main", "app.py", "print('main moved')\n", token="maya-token")
    assert len(versions(svc)) == 2


def test_rebase_records_a_version_with_the_new_base(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    open_mr(svc)
    moved = commit(svc, "main", "app.py", "print('main moved')\n", token="maya-token")
    response = call(svc, "PUT", f"{MRS}/1/rebase", "dora-token")
    assert response.status == 202, response.body
    newest, _ = versions(svc)
    assert newest["base_commit_sha"] == newest["start_commit_sha"] == moved
    assert newest["head_commit_sha"] == branch_head(svc, "feature")


def test_unknown_and_foreign_versions_are_404_and_access_follows_the_merge_request(
    svc: FakeService,
) -> None:
    open_mr(svc)
    closed = call(svc, "PUT", f"{MRS}/1", "dora-token", json_body={"state_event": "close"})
    assert closed.status == 200, closed.body
    open_mr(svc, title="Second")
    theirs = versions(svc, iid=2)[0]["id"]
    for path in (
        f"{MRS}/1/versions/{theirs}",
        f"{MRS}/1/versions/999999",
        f"{MRS}/99/versions",
        f"{MRS}/99/versions/1",
    ):
        response = call(svc, "GET", path, "dora-token")
        assert (response.status, body(response)) == (404, {"message": "404 Not found"}), path
    response = call(svc, "GET", f"{MRS}/1/versions/abc", "dora-token")
    assert response.status == 400
    assert call(svc, "GET", f"{MRS}/1/versions", "otto-token").status == 404
    assert call(svc, "GET", f"{MRS}/1/versions", None).status == 401


def test_versions_are_paginated(svc: FakeService) -> None:
    open_mr(svc)
    for n in range(3):
        commit(svc, "feature", f"f{n}.py", f"N = {n}\n")
    response = call(svc, "GET", f"{MRS}/1/versions", "dora-token", query={"per_page": "2"})
    assert response.header("X-Total") == "4"
    assert [v["real_size"] for v in body(response)] == ["4", "3"]


def test_python_gitlab_mr_diffs(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="dora-token", session=svc.requests_session())
    mr = gl.projects.get("acme/shopfloor/shop").mergerequests.create(
        {"source_branch": "feature", "target_branch": "main", "title": "Checkout"}
    )
    commit(svc, "feature", "coupon.py", "COUPON = 1\n")
    listed = mr.diffs.list(get_all=True)
    assert [v.real_size for v in listed] == ["2", "1"]
    one = mr.diffs.get(listed[1].id)
    assert one.head_commit_sha == listed[1].head_commit_sha
    assert [d["new_path"] for d in one.diffs] == ["checkout.py"]
    with pytest.raises(gitlab.GitlabGetError) as error:
        mr.diffs.get(999999)
    assert error.value.response_code == 404


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(["feature", "main"]), max_size=6))
def test_one_version_per_source_head(branches: list[str]) -> None:
    """Whatever lands on the source and target branches, there is one version per source
    head the merge request had, newest first, each naming the files changed then."""
    svc = new_service()
    open_mr(svc)
    heads = [branch_head(svc, "feature")]
    for n, branch in enumerate(branches):
        sha = commit(svc, branch, f"{branch}-{n}.py", f"N = {n}\n", token="maya-token")
        if branch == "feature":
            heads.append(sha)
    listed = versions(svc, token="maya-token")
    assert [v["head_commit_sha"] for v in listed] == heads[::-1]
    assert [v["id"] for v in listed] == sorted((v["id"] for v in listed), reverse=True)
    assert [int(v["real_size"]) for v in listed] == list(range(len(heads), 0, -1))
