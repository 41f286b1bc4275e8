"""The events feed: ``/events``, ``/users/:id/events`` and ``/projects/:id/events``
recorded from issues, notes, merge requests and pushes, with the ``action``,
``target_type``, ``before``/``after`` and ``sort`` filters, visibility (private projects,
confidential issues), the service's 400/401/404 answers, and python-gitlab
(``gl.events``, ``project.events``, ``user.events``)."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import body, call

from fakeservice import FakeService

SITE = "/projects/acme%2Fwebsite"
VAULT = "/projects/acme%2Fsecret-ops%2Fvault"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status == status, response.body
    return body(response)


def summary(events: list[dict[str, Any]]) -> list[tuple[str, str | None, str | None]]:
    return [(e["action_name"], e["target_type"], e["target_title"]) for e in events]


def events(svc: FakeService, path: str, token: str | None = "alice-token", **query: str) -> Any:
    return ok(call(svc, "GET", path, token, query={"per_page": "100", **query}))


def push(svc: FakeService, project: str, branch: str, path: str, **more: str) -> str:
    data = {
        "branch": branch,
        "commit_message": f"Add {path}\n\nbody",
        "actions": [{"action": "create", "file_path": path, "content": "x\n"}],
        **more,
    }
    return ok(
        call(svc, "POST", f"{project}/repository/commits", "alice-token", json_body=data), 201
    )["id"]


def test_issues_notes_merge_requests_and_pushes_make_events(svc: FakeService) -> None:
    issue = ok(
        call(svc, "POST", f"{SITE}/issues", "alice-token", json_body={"title": "Broken"}), 201
    )
    note = ok(
        call(
            svc,
            "POST",
            f"{SITE}/issues/{issue['iid']}/notes",
            "alice-token",
            json_body={"body": "Yes"},
        ),
        201,
    )
    call(
        svc,
        "PUT",
        f"{SITE}/issues/{issue['iid']}",
        "alice-token",
        json_body={"state_event": "close"},
    )
    sha = push(svc, SITE, "topic", "a.txt", start_branch="main")
    mr = ok(
        call(
            svc,
            "POST",
            f"{SITE}/merge_requests",
            "alice-token",
            json_body={"source_branch": "topic", "target_branch": "main", "title": "Topic"},
        ),
        201,
    )
    newest = events(svc, f"{SITE}/events")[:5]
    assert summary(newest) == [
        ("opened", "MergeRequest", "Topic"),
        ("pushed new", None, None),
        ("closed", "Issue", "Broken"),
        ("commented on", "Note", "Broken"),
        ("opened", "Issue", "Broken"),
    ]
    opened_mr, pushed, closed, commented, opened = newest
    assert (opened_mr["target_id"], opened_mr["target_iid"]) == (mr["id"], mr["iid"])
    assert (closed["target_id"], closed["target_iid"]) == (issue["id"], issue["iid"])
    assert (commented["target_id"], commented["target_iid"]) == (note["id"], None)
    assert commented["note"]["body"] == "Yes" and "note" not in opened
    assert pushed["push_data"] == {
        "commit_count": 1,
        "action": "created",
        "ref_type": "branch",
        "commit_from": None,
        "commit_to": sha,
        "ref": "topic",
        "commit_title": "Add a.txt",
        "ref_count": None,
    }
    assert "push_data" not in opened
    assert list(opened) == [
        "id",
        "project_id",
        "action_name",
        "target_id",
        "target_iid",
        "target_type",
        "author_id",
        "target_title",
        "created_at",
        "author",
        "imported",
        "imported_from",
        "author_username",
    ]
    assert (opened["author"]["username"], opened["author_username"]) == ("alice", "alice")
    assert opened["created_at"] == issue["created_at"]
    # the same events from the author's feeds
    assert events(svc, "/events")[:5] == newest
    assert events(svc, "/users/alice/events")[:5] == newest
    assert events(svc, "/users/bob/events", "bob-read-token") == []


def test_a_deleted_branch_is_a_push_without_commits(svc: FakeService) -> None:
    sha = push(svc, SITE, "gone", "g.txt", start_branch="main")
    assert call(svc, "DELETE", f"{SITE}/repository/branches/gone", "alice-token").status == 204
    deleted, created = events(svc, f"{SITE}/events", action="pushed")[:2]
    assert (deleted["action_name"], created["action_name"]) == ("deleted", "pushed new")
    assert deleted["push_data"] == {
        "commit_count": 0,
        "action": "removed",
        "ref_type": "branch",
        "commit_from": sha,
        "commit_to": None,
        "ref": "gone",
        "commit_title": None,
        "ref_count": None,
    }
    assert events(svc, "/events", action="pushed")[0] == deleted
    assert events(svc, "/users/alice/events", action="pushed")[0] == deleted


def test_a_deleted_note_leaves_its_event_without_the_note(svc: FakeService) -> None:
    ok(call(svc, "POST", f"{SITE}/issues", "alice-token", json_body={"title": "Talk"}), 201)
    path = f"{SITE}/issues/1/notes"
    note = ok(call(svc, "POST", path, "alice-token", json_body={"body": "Soon gone"}), 201)
    assert call(svc, "DELETE", f"{path}/{note['id']}", "alice-token").status == 204
    for feed in ("/events", "/users/alice/events", f"{SITE}/events"):
        (commented,) = events(svc, feed, target_type="note")
        assert (commented["target_id"], commented["note"]) == (note["id"], None)


def test_filters_and_sort(svc: FakeService) -> None:
    ok(call(svc, "POST", f"{SITE}/issues", "alice-token", json_body={"title": "One"}), 201)
    svc.clock.advance(days=2)
    ok(call(svc, "POST", f"{SITE}/issues", "alice-token", json_body={"title": "Two"}), 201)
    push(svc, SITE, "main", "b.txt")
    issues = events(svc, f"{SITE}/events", target_type="issue")
    assert summary(issues) == [("opened", "Issue", "Two"), ("opened", "Issue", "One")]
    assert summary(events(svc, f"{SITE}/events", target_type="issue", sort="asc")) == [
        ("opened", "Issue", "One"),
        ("opened", "Issue", "Two"),
    ]
    pushed = events(svc, "/events", action="pushed")
    assert pushed and {e["action_name"] for e in pushed} <= {"pushed to", "pushed new"}
    assert pushed[0]["push_data"]["commit_title"] == "Add b.txt"
    assert events(svc, "/events", action="created", target_type="issue") == issues
    assert events(svc, "/events", action="closed") == []
    day_one = issues[1]["created_at"][:10]
    later = events(svc, f"{SITE}/events", target_type="issue", after=day_one)
    assert summary(later) == [("opened", "Issue", "Two")]
    earlier = events(
        svc, f"{SITE}/events", target_type="issue", before=issues[0]["created_at"][:10]
    )
    assert summary(earlier) == [("opened", "Issue", "One")]
    page = call(
        svc, "GET", "/events", "alice-token", query={"per_page": "1", "target_type": "issue"}
    )
    assert page.header("X-Total") == "2" and summary(body(page)) == [("opened", "Issue", "Two")]


def test_visibility_follows_projects_and_confidential_issues(svc: FakeService) -> None:
    ok(call(svc, "POST", f"{VAULT}/issues", "alice-token", json_body={"title": "Vault"}), 201)
    secret = {"title": "Hush", "confidential": True}
    ok(call(svc, "POST", f"{SITE}/issues", "alice-token", json_body=secret), 201)
    mine = [e["target_title"] for e in events(svc, "/users/alice/events", target_type="issue")]
    assert mine == ["Hush", "Vault"]
    bob = events(svc, "/users/alice/events", "bob-read-token", target_type="issue")
    assert [e["target_title"] for e in bob] == ["Hush", "Vault"]  # a reporter in acme
    carol = events(svc, "/users/alice/events", "carol-token", target_type="issue")
    assert carol == []  # external: neither the private vault nor the confidential issue
    assert events(svc, f"{SITE}/events", None, target_type="issue") == []
    response = call(svc, "GET", f"{VAULT}/events", "carol-token")
    assert (response.status, body(response)) == (404, {"message": "404 Project Not Found"})


@pytest.mark.parametrize(
    ("path", "query", "token", "status"),
    [
        ("/events", {}, None, 401),
        ("/events", {"action": "bogus"}, "alice-token", 400),
        ("/events", {"target_type": "pipeline"}, "alice-token", 400),
        ("/events", {"before": "yesterday"}, "alice-token", 400),
        ("/events", {"after": "2026-13-01"}, "alice-token", 400),
        ("/events", {"sort": "up"}, "alice-token", 400),
        ("/users/nobody/events", {}, "alice-token", 404),
        ("/users/999999/events", {}, "alice-token", 404),
        ("/projects/acme%2Fnope/events", {}, "alice-token", 404),
    ],
)
def test_bad_input(
    svc: FakeService, path: str, query: dict[str, Any], token: str | None, status: int
) -> None:
    assert call(svc, "GET", path, token, query=query).status == status


def test_unknown_user_answers_as_the_service(svc: FakeService) -> None:
    response = call(svc, "GET", "/users/nobody/events", "alice-token")
    assert body(response) == {"message": "404 User Not Found"}


def test_python_gitlab_events(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="alice-token", session=svc.requests_session())
    project = gl.projects.get("acme/website")
    project.issues.create({"title": "From the client"})
    (first,) = gl.events.list(target_type="issue", get_all=True)
    assert (first.action_name, first.target_title) == ("opened", "From the client")
    assert [e.id for e in project.events.list(target_type="issue", get_all=True)] == [first.id]
    user = gl.users.get(first.author_id, lazy=True)
    assert [e.id for e in user.events.list(action="created", get_all=True)] == [first.id]
    pushes = project.events.list(action="pushed", sort="asc", get_all=True)
    assert pushes[0].push_data["action"] == "created"
