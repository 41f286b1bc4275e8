"""``report_approver`` rules evaluated from the pipelines: a ``code_coverage`` rule needs its
approvals until the head pipeline finished with a coverage no lower than the target
branch's latest pipeline; ``license_scanning`` rules never find a denied license (the
simulated runner makes no license reports) and need none; raw HTTP and python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, user_id

MR = f"/projects/{SHOP}/merge_requests/1"


def rule(svc: FakeService, report_type: str) -> None:
    data = {
        "name": report_type,
        "approvals_required": 1,
        "rule_type": "report_approver",
        "report_type": report_type,
        "user_ids": [user_id(svc, "maya")],
    }
    made = call(svc, "POST", f"/projects/{SHOP}/approval_rules", "maya-token", json_body=data)
    assert made.status == 201, made.body


def pipeline(svc: FakeService, coverage: float | None, path: str, data: Any = None) -> None:
    svc.runner.set_outcome("test", status="success", coverage=coverage)
    made = call(svc, "POST", path, "maya-token", json_body=data)
    assert made.status == 201, made.body


def state(svc: FakeService) -> tuple[int, list[tuple[str, int, bool]]]:
    approvals = body(call(svc, "GET", f"{MR}/approvals", "maya-token"))
    rules = body(call(svc, "GET", f"{MR}/approval_state", "maya-token"))["rules"]
    return approvals["approvals_left"], [
        (r["name"], r["approvals_required"], r["approved"]) for r in rules
    ]


def open_mr(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    data = {"title": "Checkout", "source_branch": "feature", "target_branch": "main"}
    made = call(svc, "POST", f"/projects/{SHOP}/merge_requests", "dora-token", json_body=data)
    assert made.status == 201


def test_code_coverage_rule_follows_the_pipelines(svc: FakeService) -> None:
    rule(svc, "code_coverage")
    open_mr(svc)
    assert state(svc) == (1, [("code_coverage", 1, False)])  # no head pipeline yet
    assert call(svc, "PUT", f"{MR}/merge", "maya-token").status == 405
    pipeline(svc, 80.0, f"/projects/{SHOP}/pipeline", {"ref": "main"})
    pipeline(svc, 70.0, f"{MR}/pipelines")
    assert state(svc) == (1, [("code_coverage", 1, False)])  # coverage dropped
    pipeline(svc, 85.5, f"{MR}/pipelines")
    assert state(svc) == (0, [("code_coverage", 0, True)])
    merged = call(svc, "PUT", f"{MR}/merge", "maya-token")
    assert (merged.status, body(merged)["state"]) == (200, "merged")


def test_code_coverage_without_coverage(svc: FakeService) -> None:
    rule(svc, "code_coverage")
    open_mr(svc)
    pipeline(svc, None, f"{MR}/pipelines")  # no target pipeline: nothing to compare with
    assert state(svc)[0] == 0
    pipeline(svc, 50.0, f"/projects/{SHOP}/pipeline", {"ref": "main"})
    assert state(svc)[0] == 1  # the head has no coverage, the target has a pipeline


def test_license_rules_need_no_approvals(svc: FakeService) -> None:
    rule(svc, "license_scanning")
    open_mr(svc)
    assert state(svc) == (0, [("license_scanning", 0, True)])


def test_python_gitlab_sees_the_coverage_rule(svc: FakeService) -> None:
    rule(svc, "code_coverage")
    open_mr(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="maya-token")
        mr = gl.projects.get("acme/shopfloor/shop").mergerequests.get(1)
        assert mr.approvals.get().approvals_left == 1
        mr.approve()
        assert mr.approvals.get().approvals_left == 0
