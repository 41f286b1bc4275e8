"""Approvals: the eleven operations of §4.3, approve/unapprove, merge-request-level rules,
state computed from rules, self-approval settings, reset on push, the §4.2 (3)
inheritance of ``approvals_before_merge`` and merges refused while approvals are missing."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, user_id

MRS = f"/projects/{SHOP}/merge_requests"
RULES = f"/projects/{SHOP}/approval_rules"
CONFIG = f"/projects/{SHOP}/approvals"


def open_mr(svc: FakeService, **fields: Any) -> dict[str, Any]:
    data = {"title": "Checkout", "source_branch": "feature", "target_branch": "main", **fields}
    response = call(svc, "POST", MRS, "dora-token", json_body=data)
    assert response.status == 201, response.body
    return body(response)


def test_project_configuration(svc: FakeService) -> None:
    config = body(call(svc, "GET", CONFIG, "dora-token"))
    assert config["approvals_before_merge"] == 0 and config["reset_approvals_on_push"] is True
    assert config["merge_requests_author_approval"] is False
    assert (
        call(svc, "POST", CONFIG, "dora-token", json_body={"approvals_before_merge": 1}).status
        == 403
    )
    changed = call(
        svc,
        "POST",
        CONFIG,
        "maya-token",
        json_body={"approvals_before_merge": 2, "merge_requests_author_approval": True},
    )
    assert changed.status == 201
    assert body(call(svc, "GET", CONFIG, "rita-token")) == body(changed)
    assert call(svc, "GET", CONFIG, None).status == 401


def test_approvals_before_merge_is_one_project_setting(svc: FakeService) -> None:
    project = f"/projects/{SHOP}"
    call(svc, "POST", CONFIG, "maya-token", json_body={"approvals_before_merge": 2})
    assert body(call(svc, "GET", project, "maya-token"))["approvals_before_merge"] == 2
    edited = call(svc, "PUT", project, "maya-token", json_body={"approvals_before_merge": 3})
    assert edited.status == 200 and body(edited)["approvals_before_merge"] == 3
    config = body(call(svc, "GET", CONFIG, "maya-token"))
    assert config["approvals_before_merge"] == 3
    assert config["merge_requests_author_approval"] is False


def test_project_rules_crud(svc: FakeService) -> None:
    maya, rita = user_id(svc, "maya"), user_id(svc, "rita")
    created = call(
        svc,
        "POST",
        RULES,
        "maya-token",
        json_body={"name": "Security", "approvals_required": 1, "user_ids": [maya, rita]},
    )
    assert created.status == 201
    rule = body(created)
    assert [u["username"] for u in rule["eligible_approvers"]] == ["maya", "rita"]
    assert rule["rule_type"] == "regular" and rule["contains_hidden_groups"] is False
    assert body(call(svc, "GET", f"{RULES}/{rule['id']}", "dora-token")) == rule
    updated = body(
        call(
            svc,
            "PUT",
            f"{RULES}/{rule['id']}",
            "maya-token",
            json_body={"name": "Sec", "approvals_required": 2, "user_ids": [rita]},
        )
    )
    assert [u["username"] for u in updated["users"]] == ["rita"] and updated[
        "approvals_required"
    ] == 2
    missing = call(svc, "PUT", f"{RULES}/{rule['id']}", "maya-token", json_body={"name": "x"})
    assert body(missing) == {"error": "approvals_required is missing"}
    dup = call(svc, "POST", RULES, "maya-token", json_body={"name": "Sec", "approvals_required": 1})
    assert (dup.status, body(dup)) == (400, {"message": {"name": ["has already been taken"]}})
    assert [r["name"] for r in body(call(svc, "GET", RULES, "dora-token"))] == ["Sec"]
    assert call(svc, "DELETE", f"{RULES}/{rule['id']}", "dora-token").status == 403
    assert call(svc, "DELETE", f"{RULES}/{rule['id']}", "maya-token").status == 204
    assert call(svc, "GET", f"{RULES}/{rule['id']}", "maya-token").status == 404


def test_approvals_from_rules_gate_the_merge(svc: FakeService) -> None:
    rita = user_id(svc, "rita")
    call(
        svc,
        "POST",
        RULES,
        "maya-token",
        json_body={"name": "Leads", "approvals_required": 1, "user_ids": [rita]},
    )
    call(
        svc,
        "POST",
        RULES,
        "maya-token",
        json_body={"name": "Any", "approvals_required": 1, "rule_type": "any_approver"},
    )
    open_mr(svc)
    approvals = body(call(svc, "GET", f"{MRS}/1/approvals", "maya-token"))
    assert (
        approvals["approvals_required"],
        approvals["approvals_left"],
        approvals["approved"],
    ) == (2, 2, False)
    refused = call(svc, "PUT", f"{MRS}/1/merge", "maya-token")
    assert (refused.status, body(refused)) == (405, {"message": "405 Method Not Allowed"})

    by_maya = body(call(svc, "POST", f"{MRS}/1/approve", "maya-token"))
    assert by_maya["approvals_left"] == 1 and [
        a["user"]["username"] for a in by_maya["approved_by"]
    ] == ["maya"]
    assert call(svc, "POST", f"{MRS}/1/approve", "maya-token").status == 401  # twice
    stale = call(svc, "POST", f"{MRS}/1/approve", "rita-token", json_body={"sha": "0" * 40})
    assert stale.status == 409
    state = body(call(svc, "GET", f"{MRS}/1/approval_state", "maya-token"))
    assert state["approval_rules_overwritten"] is False
    assert [(r["name"], r["approved"]) for r in state["rules"]] == [("Leads", False), ("Any", True)]
    body(call(svc, "POST", f"{MRS}/1/approve", "rita-token"))
    assert body(call(svc, "GET", f"{MRS}/1/approvals", "maya-token"))["approvals_left"] == 0
    notes = [
        n["body"] for n in body(call(svc, "GET", f"{MRS}/1/notes", "maya-token")) if n["system"]
    ]
    assert notes == ["approved this merge request", "approved this merge request"]
    assert body(call(svc, "PUT", f"{MRS}/1/merge", "maya-token"))["state"] == "merged"


def test_author_and_committers(svc: FakeService) -> None:
    call(svc, "POST", CONFIG, "maya-token", json_body={"approvals_before_merge": 1})
    open_mr(svc)
    assert call(svc, "POST", f"{MRS}/1/approve", "dora-token").status == 401  # the author
    call(
        svc,
        "POST",
        CONFIG,
        "maya-token",
        json_body={
            "merge_requests_author_approval": True,
            "merge_requests_disable_committers_approval": True,
        },
    )
    assert call(svc, "POST", f"{MRS}/1/approve", "dora-token").status == 401  # dora made the commit
    call(
        svc,
        "POST",
        CONFIG,
        "maya-token",
        json_body={"merge_requests_disable_committers_approval": False},
    )
    assert call(svc, "POST", f"{MRS}/1/approve", "dora-token").status == 201
    assert call(svc, "POST", f"{MRS}/1/approve", "gus-token").status == 401  # a guest
    assert call(svc, "POST", f"{MRS}/1/unapprove", "dora-token").status == 201
    assert call(svc, "POST", f"{MRS}/1/unapprove", "dora-token").status == 404


def test_inheritance_of_approvals_before_merge(svc: FakeService) -> None:
    assert open_mr(svc)["approvals_before_merge"] is None
    call(svc, "PUT", f"{MRS}/1", "maya-token", json_body={"state_event": "close"})
    call(svc, "POST", CONFIG, "maya-token", json_body={"approvals_before_merge": 2})
    assert open_mr(svc)["approvals_before_merge"] == 2
    call(svc, "PUT", f"{MRS}/2", "maya-token", json_body={"state_event": "close"})
    assert open_mr(svc, approvals_before_merge=1)["approvals_before_merge"] == 2  # not larger
    call(svc, "PUT", f"{MRS}/3", "maya-token", json_body={"state_event": "close"})
    assert open_mr(svc, approvals_before_merge=3)["approvals_before_merge"] == 3
    call(svc, "PUT", f"{MRS}/4", "maya-token", json_body={"state_event": "close"})
    fourth = open_mr(svc, approvals_before_merge=0)
    assert fourth["approvals_before_merge"] == 0
    assert body(call(svc, "GET", f"{MRS}/5/approvals", "maya-token"))["approvals_required"] == 0
    changed = call(
        svc, "POST", f"{MRS}/5/approvals", "maya-token", json_body={"approvals_required": 1}
    )
    assert changed.status == 201 and body(changed)["approvals_left"] == 1


def test_reset_approvals_on_push(svc: FakeService) -> None:
    call(svc, "POST", CONFIG, "maya-token", json_body={"approvals_before_merge": 1})
    open_mr(svc)
    call(svc, "POST", f"{MRS}/1/approve", "maya-token")
    push = {
        "branch": "feature",
        "commit_message": "More",
        "actions": [{"action": "create", "file_path": "m", "content": "m"}],
    }
    call(svc, "POST", f"/projects/{SHOP}/repository/commits", "dora-token", json_body=push)
    assert body(call(svc, "GET", f"{MRS}/1/approvals", "maya-token"))["approvals_left"] == 1
    call(svc, "POST", CONFIG, "maya-token", json_body={"reset_approvals_on_push": False})
    call(svc, "POST", f"{MRS}/1/approve", "maya-token")
    push["actions"] = [{"action": "create", "file_path": "n", "content": "n"}]
    call(svc, "POST", f"/projects/{SHOP}/repository/commits", "dora-token", json_body=push)
    assert body(call(svc, "GET", f"{MRS}/1/approvals", "maya-token"))["approvals_left"] == 0


def test_merge_request_level_rules(svc: FakeService) -> None:
    rita = user_id(svc, "rita")
    project_rule = body(
        call(
            svc,
            "POST",
            RULES,
            "maya-token",
            json_body={"name": "Leads", "approvals_required": 1, "user_ids": [rita]},
        )
    )
    open_mr(svc)
    created = call(
        svc,
        "POST",
        f"{MRS}/1/approval_rules",
        "dora-token",
        json_body={
            "name": "Extra",
            "approvals_required": 1,
            "approval_project_rule_id": project_rule["id"],
        },
    )
    assert created.status == 201
    rule = body(created)
    assert rule["source_rule"] == {"approvals_required": 1} and [
        u["username"] for u in rule["users"]
    ] == ["rita"]
    state = body(call(svc, "GET", f"{MRS}/1/approval_state", "maya-token"))
    assert state["approval_rules_overwritten"] is True and [r["name"] for r in state["rules"]] == [
        "Extra"
    ]
    assert [r["name"] for r in body(call(svc, "GET", f"{MRS}/1/approval_rules", "maya-token"))] == [
        "Extra"
    ]
    edited = body(
        call(
            svc,
            "PUT",
            f"{MRS}/1/approval_rules/{rule['id']}",
            "dora-token",
            json_body={"approvals_required": 0},
        )
    )
    assert edited["approvals_required"] == 0
    assert call(svc, "DELETE", f"{MRS}/1/approval_rules/{rule['id']}", "dora-token").status == 204
    call(
        svc,
        "POST",
        CONFIG,
        "maya-token",
        json_body={"disable_overriding_approvers_per_merge_request": True},
    )
    denied = call(
        svc,
        "POST",
        f"{MRS}/1/approval_rules",
        "dora-token",
        json_body={"name": "X", "approvals_required": 1},
    )
    assert denied.status == 403


def test_every_approval_call_needs_authentication(svc: FakeService) -> None:
    open_mr(svc)
    for method, path in (
        ("GET", CONFIG),
        ("GET", RULES),
        ("GET", f"{MRS}/1/approvals"),
        ("GET", f"{MRS}/1/approval_state"),
        ("GET", f"{MRS}/1/approval_rules"),
        ("POST", f"{MRS}/1/approve"),
    ):
        assert call(svc, method, path, None).status == 401, path


def test_python_gitlab_approve(svc: FakeService) -> None:
    call(svc, "POST", CONFIG, "maya-token", json_body={"approvals_before_merge": 1})
    open_mr(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="maya-token")
        mr = gl.projects.get("acme/shopfloor/shop").mergerequests.get(1)
        head = mr.sha
        assert mr.approvals.get().approvals_left == 1
        mr.approve()
        assert mr.approvals.get().approvals_left == 0
        mr.unapprove()
        assert mr.approval_state.get().rules == []
        mr.approve(sha=head)  # approve() replaces the attributes with the approvals
        mr.merge()
        assert mr.state == "merged"
