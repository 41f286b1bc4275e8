"""Merge requests on real git: create, lists and filters, get, update, delete, changes,
commits, diff refs, the asynchronous merge status, merge (merge commit, squash,
fast-forward), conflicts, pushes to the source branch, closing issues, rebase and the
subscription and to-do 304s. Raw HTTP; python-gitlab and git in test_review_flow.py."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, user_id

MRS = f"/projects/{SHOP}/merge_requests"


def open_mr(svc: FakeService, token: str = "dora-token", **fields: Any) -> dict[str, Any]:
    data = {"title": "Checkout", "source_branch": "feature", "target_branch": "main", **fields}
    response = call(svc, "POST", MRS, token, json_body=data)
    assert response.status == 201, response.body
    return body(response)


def commit(
    svc: FakeService, branch: str, path: str, content: str, token: str = "dora-token"
) -> str:
    response = call(
        svc,
        "POST",
        f"/projects/{SHOP}/repository/commits",
        token,
        json_body={
            "branch": branch,
            "commit_message": f"Change {path}",
            "actions": [
                {
                    "action": "update" if path == "app.py" else "create",
                    "file_path": path,
                    "content": content,
                }
            ],
        },
    )
    assert response.status == 201, response.body
    return body(response)["id"]


def branch_head(svc: FakeService, branch: str) -> str:
    return body(call(svc, "GET", f"/projects/{SHOP}/repository/branches/{branch}"))["commit"]["id"]


def test_create_shows_git_and_checks_on_the_clock(svc: FakeService) -> None:
    created = open_mr(svc, description="Closes #1, fixes #2", labels="feature")
    assert (created["iid"], created["project_id"], created["state"]) == (
        1,
        created["target_project_id"],
        "opened",
    )
    assert created["merge_status"] == "checking" and created["has_conflicts"] is False
    assert created["sha"] == branch_head(svc, "feature")
    refs = created["diff_refs"]
    assert refs == {
        "base_sha": branch_head(svc, "main"),
        "head_sha": created["sha"],
        "start_sha": branch_head(svc, "main"),
    }
    assert created["changes_count"] == "1"
    assert created["references"] == {
        "short": "!1",
        "relative": "!1",
        "full": "acme/shopfloor/shop!1",
    }
    svc.clock.advance(seconds=1)
    assert body(call(svc, "GET", f"{MRS}/1"))["merge_status"] == "checking"
    svc.clock.advance(seconds=1)
    assert body(call(svc, "GET", f"{MRS}/1"))["merge_status"] == "can_be_merged"
    changes = body(call(svc, "GET", f"{MRS}/1/changes"))["changes"]
    assert [(c["new_path"], c["new_file"]) for c in changes] == [("checkout.py", True)]
    assert "+def checkout():" in changes[0]["diff"]
    commits = body(call(svc, "GET", f"{MRS}/1/commits"))
    assert [c["title"] for c in commits] == ["Add checkout"]
    closes = body(call(svc, "GET", f"{MRS}/1/closes_issues"))
    assert [i["iid"] for i in closes] == [1, 2]


def test_instant_runner_mode_checks_at_once(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    assert open_mr(svc)["merge_status"] == "can_be_merged"


def test_create_errors(svc: FakeService) -> None:
    same = call(
        svc,
        "POST",
        MRS,
        "dora-token",
        json_body={"title": "x", "source_branch": "main", "target_branch": "main"},
    )
    assert (same.status, body(same)) == (
        400,
        {"message": ["You can't use same project/branch for source and target"]},
    )
    missing = call(
        svc,
        "POST",
        MRS,
        "dora-token",
        json_body={"title": "x", "source_branch": "nope", "target_branch": "main"},
    )
    assert body(missing) == {"message": ['Source branch "nope" does not exist']}
    assert body(call(svc, "POST", MRS, "dora-token", json_body={})) == {
        "error": "source_branch is missing, target_branch is missing, title is missing"
    }
    open_mr(svc)
    dup = call(
        svc,
        "POST",
        MRS,
        "dora-token",
        json_body={"title": "y", "source_branch": "feature", "target_branch": "main"},
    )
    assert (dup.status, body(dup)) == (
        409,
        {"message": "Another open merge request already exists for this source branch: !1"},
    )
    assert (
        call(
            svc,
            "POST",
            MRS,
            "rita-token",
            json_body={"title": "y", "source_branch": "feature", "target_branch": "main"},
        ).status
        == 403
    )
    assert call(svc, "GET", MRS, None).status == 401
    assert body(call(svc, "GET", MRS, "otto-token")) == {"message": "404 Project Not Found"}
    assert body(call(svc, "GET", f"{MRS}/99")) == {"message": "404 Not found"}


def test_list_filters_and_exclusive_pairs(svc: FakeService) -> None:
    maya = user_id(svc, "maya")
    open_mr(svc, labels="feature", assignee_ids=[maya], reviewer_ids=[maya])
    call(
        svc,
        "POST",
        f"/projects/{SHOP}/repository/branches",
        query={"branch": "docs", "ref": "main"},
    )
    open_mr(svc, title="Draft: Docs", source_branch="docs", milestone_id=1)

    def iids(**query: Any) -> list[int]:
        response = call(svc, "GET", MRS, "maya-token", query=query)
        assert response.status == 200, response.body
        return [mr["iid"] for mr in body(response)]

    assert iids() == [2, 1]
    assert iids(labels="feature") == [1]
    assert iids(labels="None") == [2]
    assert iids(milestone="v1.0") == [2]
    assert iids(milestone="None") == [1]
    assert iids(wip="yes") == [2] and iids(wip="no") == [1]
    assert iids(**{"not[labels]": "feature"}) == [2]
    assert iids(reviewer_username="maya") == [1]
    assert iids(assignee_id="None") == [2] and iids(assignee_id="Any") == [1]
    assert iids(author_username="dora", sort="asc") == [1, 2]
    assert iids(search="docs", **{"in": "title"}) == [2]
    assert iids(source_branch="docs") == [2]
    assert iids(**{"iids[]": "1"}) == [1]
    assert iids(state="merged") == []
    assert iids(scope="created_by_me") == []
    simple = body(call(svc, "GET", MRS, "maya-token", query={"view": "simple"}))[0]
    assert sorted(simple) == [
        "created_at",
        "description",
        "id",
        "iid",
        "project_id",
        "state",
        "title",
        "updated_at",
        "web_url",
    ]
    both = call(svc, "GET", MRS, "maya-token", query={"reviewer_id": "1", "reviewer_username": "x"})
    assert body(both) == {"error": "reviewer_id, reviewer_username are mutually exclusive"}
    bad = call(svc, "GET", MRS, "maya-token", query={"wip": "maybe"})
    assert body(bad) == {"error": "wip does not have a valid value"}
    everyone = body(call(svc, "GET", "/merge_requests", "dora-token"))
    assert [mr["iid"] for mr in everyone] == [2, 1]  # created by dora, the default scope
    assert body(call(svc, "GET", "/merge_requests", "maya-token")) == []
    group = body(
        call(svc, "GET", "/groups/acme/merge_requests", "maya-token", query={"labels": "feature"})
    )
    assert [mr["iid"] for mr in group] == [1]


def test_update_draft_labels_close_reopen_delete(svc: FakeService) -> None:
    open_mr(svc)
    edited = body(
        call(
            svc,
            "PUT",
            f"{MRS}/1",
            "dora-token",
            json_body={"title": "Draft: Checkout", "add_labels": "bug"},
        )
    )
    assert (edited["draft"], edited["work_in_progress"], edited["labels"]) == (True, True, ["bug"])
    svc.clock.advance(seconds=5)
    closed = body(call(svc, "PUT", f"{MRS}/1", "maya-token", json_body={"state_event": "close"}))
    assert closed["state"] == "closed" and closed["closed_by"]["username"] == "maya"
    reopened = body(call(svc, "PUT", f"{MRS}/1", "maya-token", json_body={"state_event": "reopen"}))
    assert (reopened["state"], reopened["closed_at"]) == ("opened", None)
    nothing = call(svc, "PUT", f"{MRS}/1", "maya-token", json_body={})
    assert nothing.status == 400
    assert call(svc, "PUT", f"{MRS}/1", "rita-token", json_body={"title": "x"}).status == 403
    assert call(svc, "DELETE", f"{MRS}/1", "maya-token").status == 403
    assert call(svc, "DELETE", f"{MRS}/1", "alice-token").status == 204
    assert call(svc, "GET", f"{MRS}/1").status == 404


def test_merge_makes_a_merge_commit_and_closes_issues(svc: FakeService) -> None:
    open_mr(svc, description="Closes #1")
    main_before = branch_head(svc, "main")
    feature = branch_head(svc, "feature")
    stale = call(svc, "PUT", f"{MRS}/1/merge", "maya-token", json_body={"sha": main_before})
    assert (stale.status, body(stale)) == (
        409,
        {"message": f"SHA does not match HEAD of source branch: {feature}"},
    )
    merged = body(call(svc, "PUT", f"{MRS}/1/merge", "maya-token", json_body={"sha": feature}))
    assert merged["state"] == "merged" and merged["merged_by"]["username"] == "maya"
    head = body(call(svc, "GET", f"/projects/{SHOP}/repository/commits/main"))
    assert merged["merge_commit_sha"] == head["id"]
    assert head["parent_ids"] == [main_before, feature]
    assert head["message"].startswith("Merge branch 'feature' into 'main'")
    assert body(call(svc, "GET", f"/projects/{SHOP}/issues/1"))["state"] == "closed"
    again = call(svc, "PUT", f"{MRS}/1/merge", "maya-token")
    assert (again.status, body(again)) == (405, {"message": "405 Method Not Allowed"})


def test_squash_and_fast_forward(svc: FakeService) -> None:
    commit(svc, "feature", "more.py", "x = 1\n")
    open_mr(svc)
    main_before = branch_head(svc, "main")
    merged = body(
        call(
            svc,
            "PUT",
            f"{MRS}/1/merge",
            "maya-token",
            json_body={"squash": True, "squash_commit_message": "One commit"},
        )
    )
    squash = body(
        call(svc, "GET", f"/projects/{SHOP}/repository/commits/{merged['squash_commit_sha']}")
    )
    assert squash["parent_ids"] == [main_before] and squash["message"] == "One commit"
    tree = {
        e["name"]
        for e in body(call(svc, "GET", f"/projects/{SHOP}/repository/tree", query={"ref": "main"}))
    }
    assert {"checkout.py", "more.py"} <= tree

    from fakeservice.projects.models import find_project, projects

    project = find_project(svc.store, "acme/shopfloor/shop")
    assert project is not None
    projects(svc.store).update(project, merge_method="ff")
    call(
        svc, "POST", f"/projects/{SHOP}/repository/branches", query={"branch": "ff", "ref": "main"}
    )
    tip = commit(svc, "ff", "ff.txt", "ff\n")
    open_mr(svc, source_branch="ff", title="FF")
    ff = body(call(svc, "PUT", f"{MRS}/2/merge", "maya-token"))
    assert ff["merge_commit_sha"] is None and branch_head(svc, "main") == tip


def test_conflicts_answer_406_and_cannot_be_merged(svc: FakeService) -> None:
    call(
        svc,
        "POST",
        f"/projects/{SHOP}/repository/branches",
        query={"branch": "left", "ref": "main"},
    )
    commit(svc, "left", "app.py", "print('left')\n")
    commit(svc, "main", "app.py", "print('main')\n", token="maya-token")
    open_mr(svc, source_branch="left", title="Left")
    svc.clock.advance(seconds=5)
    shown = body(call(svc, "GET", f"{MRS}/1"))
    assert (shown["merge_status"], shown["has_conflicts"]) == ("cannot_be_merged", True)
    refused = call(svc, "PUT", f"{MRS}/1/merge", "maya-token")
    assert (refused.status, body(refused)) == (406, {"message": "Branch cannot be merged"})


def test_push_to_source_updates_sha_and_rechecks(svc: FakeService) -> None:
    created = open_mr(svc)
    svc.clock.advance(seconds=5)
    new = commit(svc, "feature", "pay.py", "pay = True\n")
    shown = body(call(svc, "GET", f"{MRS}/1"))
    assert shown["sha"] == new != created["sha"] and shown["diff_refs"]["head_sha"] == new
    assert shown["merge_status"] == "checking" and shown["changes_count"] == "2"
    assert [c["title"] for c in body(call(svc, "GET", f"{MRS}/1/commits"))] == [
        "Change pay.py",
        "Add checkout",
    ]


def test_permissions_follow_roles_and_protected_branches(svc: FakeService) -> None:
    open_mr(svc)
    refused = call(svc, "PUT", f"{MRS}/1/merge", "rita-token")
    assert (refused.status, body(refused)) == (401, {"message": "401 Unauthorized"})
    assert call(svc, "PUT", f"{MRS}/1/merge", "dora-token").status == 401  # main is protected
    call(
        svc,
        "POST",
        f"/projects/{SHOP}/repository/branches",
        query={"branch": "develop", "ref": "main"},
    )
    call(
        svc,
        "POST",
        f"/projects/{SHOP}/repository/branches",
        query={"branch": "topic", "ref": "feature"},
    )
    open_mr(svc, source_branch="topic", target_branch="develop", title="Topic")
    assert body(call(svc, "PUT", f"{MRS}/2/merge", "dora-token"))["state"] == "merged"


def test_rebase_completes_on_the_clock(svc: FakeService) -> None:
    open_mr(svc)
    main = commit(svc, "main", "later.txt", "later\n", token="maya-token")
    started = call(svc, "PUT", f"{MRS}/1/rebase", "dora-token")
    assert (started.status, body(started)) == (202, {"rebase_in_progress": True})
    shown = body(
        call(
            svc,
            "GET",
            f"{MRS}/1",
            query={"include_rebase_in_progress": "true", "include_diverged_commits_count": "true"},
        )
    )
    assert shown["rebase_in_progress"] is True and shown["diverged_commits_count"] == 1
    svc.clock.advance(seconds=10)
    done = body(
        call(
            svc,
            "GET",
            f"{MRS}/1",
            query={"include_rebase_in_progress": "true", "include_diverged_commits_count": "true"},
        )
    )
    assert (done["rebase_in_progress"], done["merge_error"], done["diverged_commits_count"]) == (
        False,
        None,
        0,
    )
    rebased = body(call(svc, "GET", f"/projects/{SHOP}/repository/commits/feature"))
    assert rebased["parent_ids"] == [main]
    assert call(svc, "PUT", f"{MRS}/1/rebase", "rita-token").status == 403


def test_subscriptions_and_todo_answer_304(svc: FakeService) -> None:
    open_mr(svc)
    assert body(call(svc, "GET", f"{MRS}/1", "maya-token"))["subscribed"] is False
    assert body(call(svc, "POST", f"{MRS}/1/subscribe", "maya-token"))["subscribed"] is True
    assert call(svc, "POST", f"{MRS}/1/subscribe", "maya-token").status == 304
    assert body(call(svc, "POST", f"{MRS}/1/unsubscribe", "maya-token"))["subscribed"] is False
    assert call(svc, "POST", f"{MRS}/1/unsubscribe", "maya-token").status == 304
    todo = call(svc, "POST", f"{MRS}/1/todo", "maya-token")
    assert todo.status == 201 and body(todo)["target_type"] == "MergeRequest"
    assert body(todo)["target"]["iid"] == 1 and body(todo)["action_name"] == "marked"
    assert call(svc, "POST", f"{MRS}/1/todo", "maya-token").status == 304


def test_merge_when_pipeline_succeeds(svc: FakeService) -> None:
    svc.runner.set_mode("timed")
    open_mr(svc)
    pipeline = call(svc, "POST", f"{MRS}/1/pipelines", "dora-token")
    assert pipeline.status == 201 and body(pipeline)["source"] == "merge_request_event"
    waiting = body(
        call(
            svc,
            "PUT",
            f"{MRS}/1/merge",
            "maya-token",
            json_body={"merge_when_pipeline_succeeds": True},
        )
    )
    assert (waiting["state"], waiting["merge_when_pipeline_succeeds"]) == ("opened", True)
    assert [p["id"] for p in body(call(svc, "GET", f"{MRS}/1/pipelines"))] == [body(pipeline)["id"]]
    svc.clock.advance(seconds=120)
    merged = body(call(svc, "GET", f"{MRS}/1"))
    assert merged["state"] == "merged" and merged["merge_when_pipeline_succeeds"] is False
    assert merged["pipeline"]["status"] == "success"


def test_failed_pipeline_stops_waiting(svc: FakeService) -> None:
    svc.runner.set_mode("timed")
    svc.runner.set_outcome("test", status="failed", failure_reason="script_failure")
    open_mr(svc)
    call(svc, "POST", f"{MRS}/1/pipelines", "dora-token")
    call(
        svc, "PUT", f"{MRS}/1/merge", "maya-token", json_body={"merge_when_pipeline_succeeds": True}
    )
    svc.clock.advance(seconds=120)
    shown = body(call(svc, "GET", f"{MRS}/1"))
    assert (shown["state"], shown["merge_when_pipeline_succeeds"]) == ("opened", False)
    cancel = call(svc, "POST", f"{MRS}/1/cancel_merge_when_pipeline_succeeds", "maya-token")
    assert cancel.status == 406


@pytest.mark.parametrize("flag", ["true", "false"])
def test_should_remove_source_branch(svc: FakeService, flag: str) -> None:
    open_mr(svc)
    call(
        svc, "PUT", f"{MRS}/1/merge", "maya-token", json_body={"should_remove_source_branch": flag}
    )
    exists = call(svc, "GET", f"/projects/{SHOP}/repository/branches/feature").status == 200
    assert exists is (flag == "false")


def test_participants_diffs_and_recheck(svc: FakeService) -> None:
    maya = user_id(svc, "maya")
    open_mr(svc, reviewer_ids=[maya])
    call(svc, "POST", f"{MRS}/1/notes", "rita-token", json_body={"body": "Question"})
    people = [u["username"] for u in body(call(svc, "GET", f"{MRS}/1/participants"))]
    assert people == ["dora", "maya", "rita"]
    diffs = call(svc, "GET", f"{MRS}/1/diffs", query={"per_page": "1"})
    assert [d["new_path"] for d in body(diffs)] == ["checkout.py"] and dict(diffs.headers)[
        "X-Total"
    ] == "1"
    push = {
        "branch": "feature",
        "commit_message": "x",
        "actions": [{"action": "create", "file_path": "x", "content": "x"}],
    }
    call(svc, "POST", f"/projects/{SHOP}/repository/commits", "dora-token", json_body=push)
    svc.clock.advance(seconds=5)
    listed = body(call(svc, "GET", MRS))[0]
    assert listed["merge_status"] == "can_be_merged"
    call(svc, "PUT", f"{MRS}/1", "maya-token", json_body={"target_branch": "main"})
    assert (
        body(call(svc, "GET", MRS, query={"with_merge_status_recheck": "true"}))[0]["merge_status"]
        == "checking"
    )
