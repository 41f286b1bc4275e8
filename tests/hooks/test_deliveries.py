"""Real deliveries: events of pushes (API and git), tags, issues, merge requests, notes,
pipelines, jobs and releases reach the hooks that want them as HTTP POSTs (captured with
respx, or received by a server the test runs), with the service's headers and payload
shapes; branch filters, templates, URL variables; manual mode; failures disabling a hook;
the journal and the hook's events; determinism."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx
from support.calls import body, call
from support.gitcli import git as _git

from fakeservice import FakeService

from .conftest import HOOK_URL
from .receiver import Receiver

PROJECT = "/projects/acme%2Fwebsite"


def add_hook(svc: FakeService, url: str = HOOK_URL, where: str = PROJECT, **fields: Any) -> Any:
    created = call(svc, "POST", f"{where}/hooks", json_body={"url": url, **fields})
    assert created.status == 201, created.body
    return body(created)


def commit(svc: FakeService, branch: str = "main", path: str = "notes.txt", **extra: Any) -> Any:
    payload = {
        "branch": branch,
        "commit_message": f"Add {path}",
        "actions": [{"action": "create", "file_path": path, "content": "hello\n"}],
        **extra,
    }
    response = call(svc, "POST", f"{PROJECT}/repository/commits", json_body=payload)
    assert response.status == 201, response.body
    return body(response)


def sent(route: Any) -> list[tuple[dict[str, str], Any]]:
    return [(dict(c.request.headers), json.loads(c.request.content)) for c in route.calls]


def test_a_commit_through_the_api_is_a_push_with_the_real_headers(
    svc: FakeService, captured: Any
) -> None:
    hook = add_hook(svc, token="s3cret", custom_headers=[{"key": "X-Team", "value": "web"}])
    before = body(call(svc, "GET", f"{PROJECT}/repository/branches/main"))["commit"]["id"]
    made = commit(svc)
    assert captured.call_count == 1  # delivered before the request returned
    headers, payload = sent(captured)[0]
    assert headers["content-type"] == "application/json"
    assert headers["x-gitlab-event"] == "Push Hook"
    assert headers["x-gitlab-token"] == "s3cret"
    assert headers["x-gitlab-instance"] == "http://fakeservice.test"
    assert headers["x-team"] == "web"
    assert headers["user-agent"].startswith("GitLab/")
    assert len(headers["x-gitlab-event-uuid"]) == 36
    assert payload["object_kind"] == payload["event_name"] == "push"
    assert (payload["before"], payload["after"], payload["checkout_sha"]) == (
        before,
        made["id"],
        made["id"],
    )
    assert payload["ref"] == "refs/heads/main"
    assert payload["user_username"] == "root"
    assert payload["project"]["path_with_namespace"] == "acme/website"
    assert payload["repository"]["git_http_url"] == "http://fakeservice.test/acme/website.git"
    assert payload["total_commits_count"] == 1
    assert payload["commits"][0]["id"] == made["id"]
    assert payload["commits"][0]["added"] == ["notes.txt"]
    # the journal and the hook's events
    journal = body(call(svc, "GET", "/_fake/hooks/deliveries", token=None))
    assert [(d["hook_id"], d["event"], d["state"], d["response_status"]) for d in journal] == [
        (hook["id"], "Push Hook", "delivered", "200")
    ]
    assert journal[0]["request_body"] == payload
    assert journal[0]["execution_duration"] == 0.0
    events = body(call(svc, "GET", f"{PROJECT}/hooks/{hook['id']}/events"))
    assert [(e["trigger"], e["response_status"], e["request_data"]) for e in events] == [
        ("push_hooks", "200", payload)
    ]
    assert events[0]["request_headers"]["X-Gitlab-Token"] == "s3cret"


def test_switches_and_branch_filters(svc: FakeService, captured: Any) -> None:
    add_hook(svc, push_events=False)  # hears nothing of pushes
    add_hook(svc, push_events_branch_filter="feature/*")
    add_hook(svc, push_events_branch_filter="^fea", branch_filter_strategy="regex")
    add_hook(svc, push_events_branch_filter="nope", branch_filter_strategy="all_branches")
    commit(svc, "main")
    assert captured.call_count == 1  # only all_branches
    commit(svc, "feature/dark-mode", path="dark.css")
    assert captured.call_count == 4
    refs = {p["ref"] for _, p in sent(captured)}
    assert refs == {"refs/heads/main", "refs/heads/feature/dark-mode"}


def test_tags_releases_and_a_new_branch(svc: FakeService, captured: Any) -> None:
    add_hook(svc, push_events=True, tag_push_events=True, releases_events=True)
    call(svc, "POST", f"{PROJECT}/repository/branches", query={"branch": "topic", "ref": "main"})
    created = call(
        svc, "POST", f"{PROJECT}/releases", json_body={"tag_name": "v9.0", "ref": "main"}
    )
    assert created.status == 201
    kinds = [
        (h["x-gitlab-event"], p.get("object_kind"), p.get("action")) for h, p in sent(captured)
    ]
    assert kinds == [
        ("Push Hook", "push", None),
        ("Tag Push Hook", "tag_push", None),
        ("Release Hook", "release", "create"),
    ]
    push, tag, release = (p for _, p in sent(captured))
    assert push["before"] == "0" * 40 and push["ref"] == "refs/heads/topic"
    assert tag["ref"] == "refs/tags/v9.0"
    assert release["tag"] == "v9.0" and release["url"].endswith("/-/releases/v9.0")


def test_issue_note_and_merge_request_events(svc: FakeService, captured: Any) -> None:
    add_hook(
        svc,
        push_events=False,
        issues_events=True,
        note_events=True,
        merge_requests_events=True,
        confidential_issues_events=False,
    )
    issue = body(call(svc, "POST", f"{PROJECT}/issues", json_body={"title": "Broken"}))
    call(svc, "PUT", f"{PROJECT}/issues/{issue['iid']}", json_body={"title": "Broken link"})
    call(svc, "POST", f"{PROJECT}/issues/{issue['iid']}/notes", json_body={"body": "on it"})
    call(svc, "PUT", f"{PROJECT}/issues/{issue['iid']}", json_body={"state_event": "close"})
    call(svc, "POST", f"{PROJECT}/issues", json_body={"title": "Secret", "confidential": True})
    mr = body(
        call(
            svc,
            "POST",
            f"{PROJECT}/merge_requests",
            json_body={
                "source_branch": "feature/dark-mode",
                "target_branch": "main",
                "title": "Dark",
            },
        )
    )
    call(svc, "PUT", f"{PROJECT}/merge_requests/{mr['iid']}", json_body={"title": "Dark mode"})
    call(svc, "PUT", f"{PROJECT}/merge_requests/{mr['iid']}", json_body={"state_event": "close"})
    seen = [
        (h["x-gitlab-event"], p["object_kind"], p["object_attributes"].get("action"))
        for h, p in sent(captured)
    ]
    assert seen == [
        ("Issue Hook", "issue", "open"),
        ("Issue Hook", "issue", "update"),
        ("Note Hook", "note", "create"),
        ("Issue Hook", "issue", "close"),
        ("Merge Request Hook", "merge_request", "open"),
        ("Merge Request Hook", "merge_request", "update"),
        ("Merge Request Hook", "merge_request", "close"),
    ]
    payloads = [p for _, p in sent(captured)]
    assert payloads[1]["changes"]["title"] == {"previous": "Broken", "current": "Broken link"}
    assert payloads[2]["issue"]["iid"] == issue["iid"]
    assert payloads[2]["object_attributes"]["note"] == "on it"
    assert payloads[3]["object_attributes"]["state"] == "closed"
    assert payloads[5]["changes"]["title"] == {"previous": "Dark", "current": "Dark mode"}
    assert payloads[4]["object_attributes"]["source_branch"] == "feature/dark-mode"
    assert payloads[4]["object_attributes"]["url"].endswith(f"/-/merge_requests/{mr['iid']}")


def test_pipeline_and_job_events_follow_the_machines(svc: FakeService, captured: Any) -> None:
    add_hook(svc, push_events=False, pipeline_events=True, job_events=True)
    svc.runner.set_mode("timed")
    created = body(call(svc, "POST", f"{PROJECT}/pipeline", json_body={"ref": "main"}))
    first = [
        p["object_attributes"]["status"]
        for _, p in sent(captured)
        if p["object_kind"] == "pipeline"
    ]
    assert first == ["pending"]
    svc.clock.advance(seconds=600)  # outside a request: delivered when the clock moved
    pipeline_statuses = [
        p["object_attributes"]["status"]
        for _, p in sent(captured)
        if p["object_kind"] == "pipeline"
    ]
    assert pipeline_statuses == ["pending", "running", "success"]
    last = [p for _, p in sent(captured) if p["object_kind"] == "pipeline"][-1]
    assert last["object_attributes"]["id"] == created["id"]
    assert {b["status"] for b in last["builds"]} == {"success", "manual"}  # deploy waits
    jobs = [p for _, p in sent(captured) if p["object_kind"] == "build"]
    assert {p["build_status"] for p in jobs} >= {"pending", "running", "success"}
    assert all(
        h["x-gitlab-event"] == "Job Hook" for h, p in sent(captured) if p["object_kind"] == "build"
    )


def test_group_hooks_hear_their_projects(svc: FakeService, captured: Any) -> None:
    add_hook(svc, where="/groups/acme", push_events=True)
    add_hook(svc, where="/groups/oss", push_events=True)
    call(
        svc,
        "POST",
        "/projects/acme%2Fplatform%2Fapi/repository/files/new.txt",
        json_body={"branch": "main", "content": "x", "commit_message": "new"},
    )
    assert captured.call_count == 1
    assert sent(captured)[0][1]["project"]["path_with_namespace"] == "acme/platform/api"


def test_templates_and_url_variables(svc: FakeService) -> None:
    add_hook(
        svc,
        url="http://hooks.example/{area}/in",
        url_variables=[{"key": "area", "value": "web"}],
        custom_webhook_template='{"kind":"{{object_kind}}","who":"{{user_username}}","p":{{project.id}}}',
    )
    with respx.mock() as mock:
        route = mock.post("http://hooks.example/web/in").respond(204)
        commit(svc)
    assert json.loads(route.calls[0].request.content) == {"kind": "push", "who": "root", "p": 1}


def test_manual_mode_queues_until_fired(svc: FakeService, captured: Any) -> None:
    add_hook(svc)
    assert (
        call(svc, "POST", "/_fake/background", json_body={"mode": "manual"}, token=None).status
        == 200
    )
    commit(svc)
    assert captured.call_count == 0
    queued = body(
        call(svc, "GET", "/_fake/hooks/deliveries", query={"state": "queued"}, token=None)
    )
    assert [d["event"] for d in queued] == ["Push Hook"]
    fired = call(svc, "POST", "/_fake/hooks/deliveries/fire", token=None)
    assert body(fired) == {"released": [queued[0]["id"]]}
    assert captured.call_count == 1
    again = body(call(svc, "GET", "/_fake/hooks/deliveries", token=None))
    assert [d["state"] for d in again] == ["delivered"]
    assert body(call(svc, "POST", "/_fake/hooks/deliveries/fire", token=None)) == {"released": []}


def test_repeated_failures_disable_a_hook_for_a_while(svc: FakeService) -> None:
    hook = add_hook(svc)
    with respx.mock() as mock:
        route = mock.post(HOOK_URL).respond(500, text="boom")
        for index in range(5):
            commit(svc, path=f"f{index}.txt")
    assert route.call_count == 4  # the fifth push found the hook disabled
    shown = body(call(svc, "GET", f"{PROJECT}/hooks/{hook['id']}"))
    assert (shown["alert_status"], shown["disabled_until"]) == (
        "temporarily_disabled",
        "2026-01-01T09:01:00Z",
    )
    journal = body(call(svc, "GET", "/_fake/hooks/deliveries", token=None))
    assert [(d["state"], d["response_status"], d["response_body"]) for d in journal] == [
        ("failed", "500", "boom")
    ] * 4
    failed = body(
        call(svc, "GET", f"{PROJECT}/hooks/{hook['id']}/events", query={"status": "server_failure"})
    )
    assert len(failed) == 4
    assert (
        body(
            call(svc, "GET", f"{PROJECT}/hooks/{hook['id']}/events", query={"status": "successful"})
        )
        == []
    )
    svc.clock.advance(seconds=61)
    assert body(call(svc, "GET", f"{PROJECT}/hooks/{hook['id']}"))["alert_status"] == "executable"
    with respx.mock() as mock:
        route = mock.post(HOOK_URL).respond(200)
        commit(svc, path="ok.txt")
    assert route.call_count == 1
    assert body(call(svc, "GET", f"{PROJECT}/hooks/{hook['id']}"))["disabled_until"] is None


def test_an_unreachable_receiver_is_recorded(svc: FakeService) -> None:
    add_hook(svc)
    with respx.mock() as mock:
        mock.post(HOOK_URL).mock(side_effect=httpx.ConnectError("refused"))
        commit(svc)
    journal = body(call(svc, "GET", "/_fake/hooks/deliveries", token=None))
    assert (journal[0]["state"], journal[0]["response_status"]) == ("failed", "internal error")
    assert journal[0]["error"] == "ConnectError: refused"


def test_the_test_endpoint(svc: FakeService) -> None:
    hook = add_hook(svc, push_events=False)
    with respx.mock() as mock:
        route = mock.post(HOOK_URL).respond(200)
        done = call(svc, "POST", f"{PROJECT}/hooks/{hook['id']}/test/push_events")
    assert (done.status, body(done)) == (201, {"message": "201 Created"})
    assert sent(route)[0][1]["object_kind"] == "push"
    none = call(svc, "POST", f"{PROJECT}/hooks/{hook['id']}/test/merge_requests_events")
    assert (none.status, body(none)) == (422, {"message": "Ensure the project has merge requests."})
    bad = call(svc, "POST", f"{PROJECT}/hooks/{hook['id']}/test/everything")
    assert (bad.status, body(bad)) == (400, {"error": "trigger does not have a valid value"})
    with respx.mock() as mock:
        mock.post(HOOK_URL).respond(404, text="no such hook")
        failed = call(svc, "POST", f"{PROJECT}/hooks/{hook['id']}/test/push_events")
    assert (failed.status, body(failed)) == (422, {"message": "[404] no such hook"})


def test_a_receiver_the_test_serves_itself(svc: FakeService, receiver: Receiver) -> None:
    add_hook(svc, url=receiver.url, token="t")
    commit(svc)
    ((path, headers, payload),) = receiver.received
    assert path == "/hook"
    assert headers["X-Gitlab-Event"] == "Push Hook" and headers["X-Gitlab-Token"] == "t"
    assert payload["object_kind"] == "push"


def test_served_deliveries_go_through_the_worker(svc: FakeService, receiver: Receiver) -> None:
    add_hook(svc, url=receiver.url)
    with svc.serve() as url:
        answer = httpx.post(
            f"{url}/api/v4/projects/acme%2Fwebsite/repository/commits",
            headers={"PRIVATE-TOKEN": "root-token"},
            json={
                "branch": "main",
                "commit_message": "served",
                "actions": [{"action": "create", "file_path": "s.txt", "content": "s"}],
            },
        )
        assert answer.status_code == 201
        assert svc.hook_outbox.drain()  # type: ignore[attr-defined]
    assert receiver.arrived.wait(5)
    assert [p["object_kind"] for _, _, p in receiver.received] == ["push"]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git CLI")
def test_a_git_push_is_a_push_event(svc: FakeService, receiver: Receiver, tmp_path: Path) -> None:
    add_hook(svc, url=receiver.url, tag_push_events=True)
    with svc.serve() as url:
        scheme, _, rest = url.partition("://")
        work = tmp_path / "work"
        _git(
            tmp_path,
            "clone",
            "-q",
            f"{scheme}://alice:alice-token@{rest}/acme/website.git",
            str(work),
        )
        (work / "pushed.txt").write_text("pushed\n")
        _git(tmp_path, "add", "pushed.txt", cwd=work)
        _git(tmp_path, "commit", "-q", "-m", "Pushed over git", cwd=work)
        _git(tmp_path, "tag", "v7", cwd=work)
        _git(tmp_path, "push", "-q", "origin", "main", "v7", cwd=work)
        assert svc.hook_outbox.drain()  # type: ignore[attr-defined]
    kinds = sorted(p["object_kind"] for _, _, p in receiver.received)
    assert kinds == ["push", "tag_push"]
    push = next(p for _, _, p in receiver.received if p["object_kind"] == "push")
    assert push["user_username"] == "alice"
    assert push["commits"][-1]["message"].startswith("Pushed over git")


def test_same_requests_same_deliveries() -> None:
    def run() -> list[Any]:
        from support.services import stamp

        svc = stamp("default", "hooks-default")
        with respx.mock() as mock:
            mock.post(HOOK_URL).respond(200)
            add_hook(svc, token="x")
            commit(svc)
            call(svc, "POST", f"{PROJECT}/issues", json_body={"title": "t"})
        return [call(svc, "GET", "/_fake/hooks/deliveries", token=None).body]

    assert run() == run()


def test_a_service_without_hooks_sends_nothing(svc: FakeService) -> None:
    with respx.mock() as mock:
        commit(svc)
        assert len(mock.calls) == 0
    assert body(call(svc, "GET", "/_fake/hooks/deliveries", token=None)) == []
