"""Hooks through python-gitlab: project hooks (create, get, save, test, delete), group
hooks and system hooks, with deliveries captured by respx."""

from __future__ import annotations

import json
from typing import Any

import gitlab
import pytest
import respx

from fakeservice import FakeService

from .conftest import HOOK_URL


@pytest.fixture
def gl(svc: FakeService) -> gitlab.Gitlab:
    return gitlab.Gitlab(svc.url, private_token="root-token", session=svc.requests_session())


def test_project_hooks(gl: gitlab.Gitlab, captured: Any) -> None:
    project = gl.projects.get("acme/website")
    hook = project.hooks.create(
        {"url": HOOK_URL, "merge_requests_events": True, "token": "t", "name": "bridge"}
    )
    assert (hook.url, hook.merge_requests_events, hook.name) == (HOOK_URL, True, "bridge")
    assert not hasattr(hook, "token")
    fetched = project.hooks.get(hook.id)
    fetched.push_events_branch_filter = "main"
    fetched.issues_events = True
    fetched.save()
    again = project.hooks.get(hook.id)
    assert (again.push_events_branch_filter, again.issues_events) == ("main", True)
    assert [h.id for h in project.hooks.list(get_all=True)] == [hook.id]
    again.test("push_events")
    (call,) = captured.calls
    assert call.request.headers["X-Gitlab-Token"] == "t"
    assert json.loads(call.request.content)["object_kind"] == "push"
    project.mergerequests.create(
        {"source_branch": "feature/dark-mode", "target_branch": "main", "title": "Dark"}
    )
    assert json.loads(captured.calls[-1].request.content)["object_kind"] == "merge_request"
    again.delete()
    assert project.hooks.list(get_all=True) == []


def test_a_failing_test_raises_the_client_error(gl: gitlab.Gitlab) -> None:
    hook = gl.projects.get("acme/website").hooks.create({"url": HOOK_URL})
    with pytest.raises(gitlab.exceptions.GitlabHookTestError) as raised:
        hook.test("issues_events")
    assert raised.value.response_code == 422
    assert raised.value.error_message == "Ensure the project has issues."
    with respx.mock() as mock:
        mock.post(HOOK_URL).respond(500)
        with pytest.raises(gitlab.exceptions.GitlabHookTestError):
            hook.test("push_events")


def test_group_hooks(gl: gitlab.Gitlab, captured: Any) -> None:
    group = gl.groups.get("acme")
    hook = group.hooks.create({"url": HOOK_URL, "subgroup_events": True, "push_events": True})
    assert (hook.group_id, hook.subgroup_events) == (group.id, True)
    hook.push_events = False
    hook.issues_events = True
    hook.save()
    assert group.hooks.get(hook.id).issues_events is True
    gl.projects.get("acme/platform/api").issues.create({"title": "From the group"})
    assert json.loads(captured.calls[-1].request.content)["object_kind"] == "issue"
    hook.delete()
    assert group.hooks.list() == []


def test_system_hooks(gl: gitlab.Gitlab, captured: Any) -> None:
    hook = gl.hooks.create({"url": HOOK_URL, "merge_requests_events": True})
    assert [h.id for h in gl.hooks.list()] == [hook.id]
    gl.http_post(f"/hooks/{hook.id}")
    assert json.loads(captured.calls[-1].request.content)["event_name"] == "project_create"
    assert captured.calls[-1].request.headers["X-Gitlab-Event"] == "System Hook"
    gl.projects.get("acme/website").files.create(
        {"file_path": "sys.txt", "branch": "main", "content": "x", "commit_message": "sys"}
    )
    assert json.loads(captured.calls[-1].request.content)["object_kind"] == "push"
    hook.delete()
    assert gl.hooks.list() == []
