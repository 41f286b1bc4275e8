"""Project and personal snippets, each on its own git repository: the eight operations,
``files[]`` actions as commits, raw files at real refs, visibility (external users
included), agent details for administrators, snippet notes; raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP

WEB = "/projects/acme%2Fwebsite/snippets"
SNIPPETS = f"/projects/{SHOP}/snippets"
TWO_FILES = [{"file_path": "a.txt", "content": "A\n"}, {"file_path": "dir/b.txt", "content": "B\n"}]


def create(svc: FakeService, base: str, token: str, **fields: object) -> dict[str, object]:
    data = {"title": "Notes", "files": TWO_FILES, **fields}
    response = call(svc, "POST", base, token, json_body=data)
    assert response.status == 201, response.body
    return body(response)


def test_create_files_commits_and_raw_at_refs(svc: FakeService) -> None:
    snippet = create(svc, SNIPPETS, "rita-token", description="Two files")
    assert (snippet["file_name"], snippet["visibility"], snippet["project_id"]) == (
        "a.txt",
        "private",
        snippet["project_id"],
    )
    assert [f["path"] for f in snippet["files"]] == ["a.txt", "dir/b.txt"]
    assert snippet["author"]["username"] == "rita" and snippet["web_url"].endswith(
        "/acme/shopfloor/shop/-/snippets/1"
    )
    first = svc.store.extras["snippet_repositories"][1].branch("main").commit_id
    edited = call(
        svc,
        "PUT",
        f"{SNIPPETS}/1",
        "rita-token",
        json_body={
            "title": "Renamed",
            "files": [
                {"action": "update", "file_path": "a.txt", "content": "A2\n"},
                {"action": "move", "previous_path": "dir/b.txt", "file_path": "c.txt"},
                {"action": "create", "file_path": "d.txt", "content": "D\n"},
            ],
        },
    )
    assert edited.status == 200 and body(edited)["title"] == "Renamed"
    assert [f["path"] for f in body(edited)["files"]] == ["a.txt", "c.txt", "d.txt"]
    raw = call(svc, "GET", f"{SNIPPETS}/1/raw", "rita-token")
    assert (raw.status, raw.body, dict(raw.headers)["Content-Type"]) == (
        200,
        b"A2\n",
        "text/plain; charset=utf-8",
    )
    assert call(svc, "GET", f"{SNIPPETS}/1/files/main/c.txt/raw", "rita-token").body == b"B\n"
    assert call(svc, "GET", f"{SNIPPETS}/1/files/{first}/a.txt/raw", "rita-token").body == b"A\n"
    assert (
        call(svc, "GET", f"{SNIPPETS}/1/files/{first}/dir%2Fb.txt/raw", "rita-token").body == b"B\n"
    )
    assert body(call(svc, "GET", f"{SNIPPETS}/1/files/main/nope.txt/raw", "rita-token")) == {
        "message": "404 File Not Found"
    }
    stale = call(
        svc,
        "PUT",
        f"{SNIPPETS}/1",
        "rita-token",
        json_body={"files": [{"action": "delete", "file_path": "zzz"}]},
    )
    assert (
        stale.status == 400
        and body(call(svc, "GET", f"{SNIPPETS}/1", "rita-token"))["title"] == "Renamed"
    )
    traversal = call(
        svc,
        "PUT",
        f"{SNIPPETS}/1",
        "rita-token",
        json_body={"files": [{"action": "create", "file_path": "../x", "content": "x"}]},
    )
    assert traversal.status == 400


def test_create_errors(svc: FakeService) -> None:
    assert body(call(svc, "POST", SNIPPETS, "rita-token", json_body={"title": "x"})) == {
        "error": "files, content are missing, exactly one parameter must be provided"
    }
    both = call(
        svc,
        "POST",
        SNIPPETS,
        "rita-token",
        json_body={"title": "x", "files": TWO_FILES, "content": "c", "file_name": "f"},
    )
    assert body(both) == {"error": "files, content are mutually exclusive"}
    bad = call(
        svc,
        "POST",
        SNIPPETS,
        "rita-token",
        json_body={"title": "x", "files": TWO_FILES, "visibility": "secret"},
    )
    assert body(bad) == {"error": "visibility does not have a valid value"}
    no_path = call(
        svc, "POST", SNIPPETS, "rita-token", json_body={"title": "x", "files": [{"content": "c"}]}
    )
    assert body(no_path) == {"error": "files[0][file_path] is missing"}
    assert (
        call(
            svc, "POST", SNIPPETS, "gus-token", json_body={"title": "x", "files": TWO_FILES}
        ).status
        == 403
    )
    deprecated = body(
        call(
            svc,
            "POST",
            SNIPPETS,
            "rita-token",
            json_body={"title": "x", "file_name": "f.py", "content": "print()"},
        )
    )
    assert deprecated["file_name"] == "f.py"


def test_visibility_rules(svc: FakeService) -> None:
    create(svc, WEB, "alice-token", title="Public", visibility="public")
    create(svc, WEB, "alice-token", title="Internal", visibility="internal")
    create(svc, WEB, "alice-token", title="Private", visibility="private")

    def titles(token: str | None) -> list[str]:
        return [s["title"] for s in body(call(svc, "GET", WEB, token))]

    assert titles(None) == ["Public"]
    assert titles("carol-token") == ["Public"]  # external users do not see internal snippets
    assert titles("maya-token") == ["Internal", "Public"]
    assert titles("alice-token") == ["Private", "Internal", "Public"]
    assert body(call(svc, "GET", f"{WEB}/2", "carol-token")) == {"message": "404 Snippet Not Found"}
    assert call(svc, "GET", f"{WEB}/1/raw", None).status == 200
    private_raw = call(svc, "GET", f"{WEB}/3/raw", "maya-token")
    assert private_raw.status == 404


def test_update_delete_and_agent_details_permissions(svc: FakeService) -> None:
    create(svc, SNIPPETS, "rita-token", visibility="internal")
    assert call(svc, "PUT", f"{SNIPPETS}/1", "dora-token", json_body={"title": "x"}).status == 403
    assert (
        call(svc, "PUT", f"{SNIPPETS}/1", "maya-token", json_body={"title": "by maintainer"}).status
        == 200
    )
    assert call(svc, "GET", f"{SNIPPETS}/1/user_agent_detail", "maya-token").status == 403
    detail = body(call(svc, "GET", f"{SNIPPETS}/1/user_agent_detail", "root-token"))
    assert sorted(detail) == [
        "akismet_submitted",
        "ip_address",
        "spam_service_submitted",
        "user_agent",
    ]
    assert call(svc, "DELETE", f"{SNIPPETS}/1", "dora-token").status == 403
    assert call(svc, "DELETE", f"{SNIPPETS}/1", "rita-token").status == 204
    assert body(call(svc, "DELETE", f"{SNIPPETS}/1", "rita-token")) == {
        "message": "404 Snippet Not Found"
    }


def test_snippet_notes(svc: FakeService) -> None:
    create(svc, SNIPPETS, "rita-token")
    note = body(call(svc, "POST", f"{SNIPPETS}/1/notes", "maya-token", json_body={"body": "Handy"}))
    assert (note["noteable_type"], note["noteable_iid"]) == ("Snippet", None)
    single = body(call(svc, "GET", f"{SNIPPETS}/1/notes/{note['id']}", "maya-token"))
    assert sorted(single) == [
        "author",
        "created_at",
        "expires_at",
        "file_name",
        "id",
        "title",
        "updated_at",
    ]
    assert (single["title"], single["file_name"]) == ("Notes", "a.txt")
    assert [n["body"] for n in body(call(svc, "GET", f"{SNIPPETS}/1/notes", "maya-token"))] == [
        "Handy"
    ]


def test_personal_snippets(svc: FakeService) -> None:
    mine = create(svc, "/snippets", "dora-token", visibility="public")
    assert mine["project_id"] is None and mine["web_url"].endswith(f"/-/snippets/{mine['id']}")
    assert [s["id"] for s in body(call(svc, "GET", "/snippets", "dora-token"))] == [mine["id"]]
    assert body(call(svc, "GET", "/snippets", "maya-token")) == []
    assert call(svc, "GET", f"/snippets/{mine['id']}", None).status == 200
    assert call(svc, "GET", "/snippets", None).status == 401
    assert (
        call(svc, "PUT", f"/snippets/{mine['id']}", "maya-token", json_body={"title": "x"}).status
        == 403
    )


@pytest.mark.parametrize("visibility", ["private", "public"])
def test_python_gitlab_project_snippets(svc: FakeService, visibility: str) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="maya-token")
        project = gl.projects.get("acme/shopfloor/shop")
        snippet = project.snippets.create(
            {"title": "Tips", "visibility": visibility, "files": TWO_FILES}
        )
        assert snippet.content() == b"A\n"
        snippet.title = "More tips"
        snippet.save()
        assert project.snippets.get(snippet.id).title == "More tips"
        assert [s.id for s in project.snippets.list(get_all=True)] == [snippet.id]
        snippet.delete()
        assert project.snippets.list(get_all=True) == []
