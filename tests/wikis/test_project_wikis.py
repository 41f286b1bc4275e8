"""Project wikis over raw HTTP: list, get (version, render_html), create, edit, delete,
attachments; slugs and formats; access levels and roles; a real git repository."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call_as

from fakeservice import FakeService
from fakeservice.wikis.models import wiki_of

SITE = "/projects/docs%2Fsite/wikis"


def create(svc: FakeService, who: str = "dan", where: str = SITE, **fields: Any) -> Any:
    response = call_as(svc, "POST", where, who, body=fields)
    assert response.status == 201, response.body
    return body(response)


def test_list_with_and_without_content(svc: FakeService) -> None:
    assert body(call_as(svc, "GET", SITE, None)) == [
        {"format": "markdown", "slug": "home", "title": "home"},
        {"format": "asciidoc", "slug": "ops/On-Call", "title": "On Call"},
    ]
    full = body(call_as(svc, "GET", SITE, "otto", with_content="true"))
    assert full[0] == {
        "format": "markdown",
        "slug": "home",
        "title": "home",
        "content": "# Welcome\n\nStart *here*.",
        "encoding": "UTF-8",
    }
    assert full[1]["content"] == "= Pager"


def test_create_get_edit_delete(svc: FakeService) -> None:
    page = create(svc, title="Deploy  Guide ", content="steps", format="rdoc")
    assert page == {
        "format": "rdoc",
        "slug": "Deploy-Guide",
        "title": "Deploy Guide",
        "content": "steps",
        "encoding": "UTF-8",
    }
    assert body(call_as(svc, "GET", f"{SITE}/Deploy-Guide", "otto")) == page
    edited = call_as(svc, "PUT", f"{SITE}/Deploy-Guide", "dan", body={"content": "v2"})
    assert body(edited) == {**page, "content": "v2"}
    moved = call_as(svc, "PUT", f"{SITE}/Deploy-Guide", "dan", body={"format": "markdown"})
    assert body(moved)["format"] == "markdown"
    assert body(call_as(svc, "GET", f"{SITE}/Deploy-Guide", "dan"))["format"] == "markdown"
    gone = call_as(svc, "DELETE", f"{SITE}/Deploy-Guide", "dan")
    assert (gone.status, gone.body) == (204, b"")
    again = call_as(svc, "GET", f"{SITE}/Deploy-Guide", "dan")
    assert (again.status, body(again)) == (404, {"message": "404 Wiki Page Not Found"})
    assert [p["slug"] for p in body(call_as(svc, "GET", SITE, "dan"))] == ["home", "ops/On-Call"]


def test_pages_are_commits_of_a_wiki_repository(svc: FakeService) -> None:
    create(svc, title="notes", content="a")
    call_as(svc, "PUT", f"{SITE}/notes", "dan", body={"content": "b"})
    project = body(call_as(svc, "GET", "/projects/docs%2Fsite", "root"))
    repo = wiki_of(svc.store, "project", project["id"]).repo
    messages = [c.message for c in repo.commits("HEAD")]
    assert messages[:2] == ["dan updated page: notes", "dan created page: notes"]
    assert repo.raw("HEAD", "notes.md") == b"b"
    first = repo.commits("HEAD")[1].id
    old = call_as(svc, "GET", f"{SITE}/notes", "dan", version=first)
    assert body(old)["content"] == "a"
    missing = call_as(svc, "GET", f"{SITE}/notes", "dan", version="0" * 40)
    assert missing.status == 404
    # the project's own repository is untouched
    assert call_as(svc, "GET", "/projects/docs%2Fsite/repository/tree", "root").status == 404


def test_render_html(svc: FakeService) -> None:
    page = body(call_as(svc, "GET", f"{SITE}/home", "otto", render_html="true"))
    assert page["content"] == (
        '<h1 data-sourcepos="1:1-1:9" dir="auto"><a href="#welcome" aria-hidden="true" '
        'class="anchor" id="user-content-welcome"></a>Welcome</h1>\n'
        '<p data-sourcepos="3:1-3:13" dir="auto">Start <em>here</em>.</p>'
    )
    create(svc, title="x", content="<script>1</script>")
    escaped = body(call_as(svc, "GET", f"{SITE}/x", "otto", render_html="true"))["content"]
    assert "<script>" not in escaped and "&lt;script&gt;" in escaped


def test_rename_keeps_directory_and_refuses_taken_titles(svc: FakeService) -> None:
    renamed = call_as(svc, "PUT", f"{SITE}/ops%2FOn-Call", "dan", body={"title": "Pager Duty"})
    assert body(renamed)["slug"] == "ops/Pager-Duty"
    top = call_as(svc, "PUT", f"{SITE}/ops%2FPager-Duty", "dan", body={"title": "/pager"})
    assert body(top)["slug"] == "pager"
    taken = call_as(svc, "PUT", f"{SITE}/pager", "dan", body={"title": "home"})
    assert (taken.status, body(taken)) == (
        400,
        {"message": {"base": ["There is already a page with the same title in that path."]}},
    )


@pytest.mark.parametrize(
    ("fields", "status", "answer"),
    [
        ({"content": "x"}, 400, {"error": "title is missing"}),
        ({"title": "x"}, 400, {"error": "content is missing"}),
        (
            {"title": "x", "content": "y", "format": "wiki"},
            400,
            {"error": "format does not have a valid value"},
        ),
        ({"title": " ", "content": "y"}, 400, {"message": {"title": ["can't be blank"]}}),
        ({"title": "a/../b", "content": "y"}, 400, {"message": {"title": ["is invalid"]}}),
        (
            {"title": "x" * 246, "content": "y"},
            400,
            {"message": {"title": ["exceeds the limit of 245 bytes"]}},
        ),
        (
            {"title": "home", "content": "y"},
            400,
            {"message": {"base": ["Duplicate page: A page with that title already exists"]}},
        ),
    ],
)
def test_bad_input_changes_nothing(
    svc: FakeService, fields: dict[str, Any], status: int, answer: Any
) -> None:
    before = body(call_as(svc, "GET", SITE, "dan", with_content="true"))
    response = call_as(svc, "POST", SITE, "dan", body=fields)
    assert (response.status, body(response)) == (status, answer)
    assert body(call_as(svc, "GET", SITE, "dan", with_content="true")) == before


def test_edit_needs_a_field(svc: FakeService) -> None:
    response = call_as(svc, "PUT", f"{SITE}/home", "dan", body={})
    assert body(response) == {
        "error": "content, title, format are missing, at least one parameter must be provided"
    }


def test_roles(svc: FakeService) -> None:
    for who in ("rita", "otto"):
        refused = call_as(svc, "POST", SITE, who, body={"title": "t", "content": "c"})
        assert (refused.status, body(refused)) == (403, {"message": "403 Forbidden"})
        assert call_as(svc, "DELETE", f"{SITE}/home", who).status == 403
    assert call_as(svc, "POST", SITE, None, body={"title": "t", "content": "c"}).status == 401
    secret = "/projects/docs%2Fsecret/wikis"
    assert call_as(svc, "GET", secret, "otto").status == 404
    assert call_as(svc, "GET", secret, "rita").status == 200
    create(svc, "olga", secret, title="t", content="c")


@pytest.mark.parametrize(
    ("level", "member", "outsider"), [("disabled", 403, 403), ("private", 200, 403)]
)
def test_wiki_access_level(svc: FakeService, level: str, member: int, outsider: int) -> None:
    changed = call_as(
        svc, "PUT", "/projects/docs%2Fsite", "olga", body={"wiki_access_level": level}
    )
    assert changed.status == 200
    assert call_as(svc, "GET", SITE, "rita").status == member
    assert call_as(svc, "GET", f"{SITE}/home", "otto").status == outsider
    assert call_as(svc, "GET", SITE, None).status == outsider


def test_archived_project_refuses_writes(svc: FakeService) -> None:
    assert call_as(svc, "POST", "/projects/docs%2Fsite/archive", "olga").status == 201
    assert call_as(svc, "POST", SITE, "olga", body={"title": "t", "content": "c"}).status == 403
    assert call_as(svc, "GET", SITE, "otto").status == 200


def _upload(svc: FakeService, who: str, name: str, data: bytes, branch: str | None = None) -> Any:
    parts = [
        b'--XX\r\nContent-Disposition: form-data; name="file"; filename="'
        + name.encode()
        + b'"\r\nContent-Type: application/octet-stream\r\n\r\n'
        + data
        + b"\r\n"
    ]
    if branch:
        parts.append(
            b'--XX\r\nContent-Disposition: form-data; name="branch"\r\n\r\n'
            + branch.encode()
            + b"\r\n"
        )
    return svc.request(
        "POST",
        f"{SITE}/attachments",
        token=f"{who}-token",
        body=b"".join(parts) + b"--XX--\r\n",
        headers={"Content-Type": "multipart/form-data; boundary=XX"},
    )


def test_attachments(svc: FakeService) -> None:
    image = body(_upload(svc, "dan", "dk.png", b"PNG"))
    path = image["file_path"]
    assert (
        path.startswith("uploads/") and path.endswith("/dk.png") and len(path.split("/")[1]) == 32
    )
    assert image == {
        "file_name": "dk.png",
        "file_path": path,
        "branch": "main",
        "link": {"url": path, "markdown": f"![dk]({path})"},
    }
    text = body(_upload(svc, "dan", "../notes.txt", b"hello", branch="drafts"))
    assert text["file_name"] == "notes.txt" and text["branch"] == "drafts"
    assert text["link"]["markdown"] == f"[notes.txt]({text['file_path']})"
    project = body(call_as(svc, "GET", "/projects/docs%2Fsite", "root"))
    repo = wiki_of(svc.store, "project", project["id"]).repo
    assert repo.raw("HEAD", path) == b"PNG"
    assert repo.raw("drafts", text["file_path"]) == b"hello"
    assert _upload(svc, "rita", "x.png", b"x").status == 403
    missing = call_as(svc, "POST", f"{SITE}/attachments", "dan", body={})
    assert body(missing) == {"error": "file is missing"}


def test_deleting_the_project_drops_its_wiki(svc: FakeService) -> None:
    project = body(call_as(svc, "GET", "/projects/docs%2Fsite", "root"))
    assert call_as(svc, "DELETE", f"/projects/{project['id']}", "root").status in (202, 204)
    assert wiki_of(svc.store, "project", project["id"]).repo.is_empty


TITLES = st.lists(
    st.text(alphabet="abcXYZ019 _-.", min_size=1, max_size=12).filter(
        lambda t: t.strip(" .") and not t.startswith(".")
    ),
    min_size=1,
    max_size=4,
).map("/".join)


@settings(max_examples=30, deadline=None)
@given(title=TITLES)
def test_a_page_is_found_by_the_slug_it_was_given(title: str) -> None:
    from support.services import stamp

    from tests.wikis.conftest import WORLD

    svc = stamp(WORLD, "wikis-world")
    response = call_as(svc, "POST", SITE, "dan", body={"title": title, "content": "c"})
    if response.status != 201:
        assert response.status == 400
        return
    page = body(response)
    assert " " not in page["slug"]
    assert page["title"] == page["slug"].rsplit("/", 1)[-1].replace("-", " ")
    encoded = page["slug"].replace("/", "%2F")
    assert body(call_as(svc, "GET", f"{SITE}/{encoded}", "otto")) == page
