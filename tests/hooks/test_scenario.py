"""The ``hooks`` scenario key of projects and groups, and ``fakeservice check``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.calls import body, call

from fakeservice import FakeService
from fakeservice.scenarios.loader import ScenarioError

from .conftest import HOOK_URL, fresh

SCENARIO: dict[str, Any] = {
    "users": [
        {
            "username": "root",
            "name": "Root",
            "email": "root@example.com",
            "admin": True,
            "tokens": [{"name": "t", "token": "root-token", "scopes": ["api"]}],
        }
    ],
    "instance": {"plan": "ultimate"},
    "groups": [{"path": "team", "hooks": [{"url": HOOK_URL, "member_events": True}]}],
    "projects": [
        {
            "path": "team/app",
            "hooks": [
                {
                    "url": "http://hooks.example/{where}",
                    "name": "bridge",
                    "token": "s3cret",
                    "issues_events": True,
                    "push_events": False,
                    "custom_headers": {"X-Team": "app"},
                    "url_variables": {"where": "receive"},
                }
            ],
        }
    ],
}


def test_hooks_load_from_a_scenario(captured: Any) -> None:
    svc = fresh(SCENARIO)
    (project_hook,) = body(call(svc, "GET", "/projects/team%2Fapp/hooks"))
    assert project_hook["name"] == "bridge"
    assert project_hook["issues_events"] is True and project_hook["push_events"] is False
    assert project_hook["custom_headers"] == [{"key": "X-Team"}]
    (group_hook,) = body(call(svc, "GET", "/groups/team/hooks"))
    assert group_hook["member_events"] is True
    call(svc, "POST", "/projects/team%2Fapp/issues", json_body={"title": "t"})
    assert [c.request.headers["X-Service-Event"] for c in captured.calls] == ["Issue Hook"]
    assert captured.calls[0].request.headers["X-Team"] == "app"
    assert captured.calls[0].request.headers["X-Service-Token"] == "s3cret"
    assert json.loads(captured.calls[0].request.content)["object_kind"] == "issue"


def test_a_bad_hook_fails_the_scenario() -> None:
    bad = {**SCENARIO, "projects": [{"path": "team/app", "hooks": [{"url": "ftp://x"}]}]}
    with pytest.raises(ScenarioError) as raised:
        FakeService(bad)
    assert "is blocked: Only allowed schemes are http, https" in str(raised.value)


def test_check_reports_unknown_keys(tmp_path: Any) -> None:
    from fakeservice.scenarios.check import check_file

    path = tmp_path / "s.yaml"
    path.write_text(
        "projects:\n  - path: a/b\n    hooks:\n      - url: http://x.example\n        pushes: true\n"
    )
    problems = check_file(path)
    assert any("pushes" in str(problem) for problem in problems)
