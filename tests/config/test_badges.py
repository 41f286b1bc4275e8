"""Project and group badges: list (with the groups' badges on projects), get, add, edit,
delete and render with placeholders; permissions; validation; scenarios; python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import body, call_as

from fakeservice import FakeService

LINK = "https://ci.example.com/%{project_path}/-/pipelines?ref=%{default_branch}"
IMAGE = "https://ci.example.com/%{project_id}/%{project_name}/%{project_title}.svg"


def add(svc: FakeService, where: str, who: str = "olga", **fields: Any) -> Any:
    payload = {"link_url": LINK, "image_url": IMAGE, **fields}
    response = call_as(svc, "POST", f"/{where}/badges", who, body=payload)
    assert response.status == 201, response.body
    return body(response)


def test_project_badge_rendered(svc: FakeService) -> None:
    badge = add(svc, "projects/infra%2Fsite", name="pipeline")
    project = body(call_as(svc, "GET", "/projects/infra%2Fsite", "root"))
    assert badge == {
        "name": "pipeline",
        "id": badge["id"],
        "link_url": LINK,
        "image_url": IMAGE,
        "rendered_link_url": f"https://ci.example.com/infra/site/-/pipelines?ref={project['default_branch'] or ''}",
        "rendered_image_url": f"https://ci.example.com/{project['id']}/site/site.svg",
        "kind": "project",
    }
    again = call_as(svc, "GET", f"/projects/infra%2Fsite/badges/{badge['id']}", "otto")
    assert body(again) == badge


def test_group_badges_show_on_projects(svc: FakeService) -> None:
    top = add(svc, "groups/infra", name="chat")
    sub = add(svc, "groups/infra%2Fnet", "olga", name="net")
    own = add(svc, "projects/infra%2Fnet%2Frouter", "olga", name="own")
    listed = body(call_as(svc, "GET", "/projects/infra%2Fnet%2Frouter/badges", "dan"))
    assert [(b["id"], b["kind"]) for b in listed] == [
        (top["id"], "group"),
        (sub["id"], "group"),
        (own["id"], "project"),
    ]
    assert listed[0]["rendered_link_url"].startswith("https://ci.example.com/infra/net/router/")
    # at the group level there is no project: the URLs stay as written
    group_list = body(call_as(svc, "GET", "/groups/infra/badges", "dan"))
    assert [b["id"] for b in group_list] == [top["id"]]
    assert group_list[0]["rendered_link_url"] == LINK
    # other projects do not see them
    assert body(call_as(svc, "GET", "/projects/olga%2Fnotes/badges", "olga")) == []
    named = call_as(svc, "GET", "/projects/infra%2Fnet%2Frouter/badges", "dan", name="net")
    assert [b["id"] for b in body(named)] == [sub["id"]]
    via_project = call_as(svc, "GET", f"/projects/infra%2Fnet%2Frouter/badges/{top['id']}", "dan")
    assert body(via_project)["kind"] == "group"
    elsewhere = call_as(svc, "GET", f"/projects/olga%2Fnotes/badges/{top['id']}", "olga")
    assert (elsewhere.status, body(elsewhere)) == (404, {"message": "404 Not found"})
    refused = call_as(svc, "DELETE", f"/projects/infra%2Fnet%2Frouter/badges/{top['id']}", "olga")
    assert (refused.status, body(refused)) == (
        403,
        {"message": "To delete a Group badge please use the Group endpoint"},
    )


def test_edit_and_delete(svc: FakeService) -> None:
    badge = add(svc, "projects/infra%2Fsite")
    path = f"/projects/infra%2Fsite/badges/{badge['id']}"
    edited = call_as(svc, "PUT", path, "olga", body={"name": "docs", "image_url": "https://i.example/x.svg"})  # fmt: skip
    assert edited.status == 200
    assert (body(edited)["name"], body(edited)["image_url"], body(edited)["link_url"]) == (
        "docs",
        "https://i.example/x.svg",
        LINK,
    )
    assert body(call_as(svc, "GET", path, "olga")) == body(edited)
    assert call_as(svc, "DELETE", path, "olga").status == 204
    assert call_as(svc, "GET", path, "olga").status == 404
    assert call_as(svc, "DELETE", path, "olga").status == 404


def test_render(svc: FakeService) -> None:
    query = {"link_url": "https://x.example/%{project_namespace}/%{unknown}", "image_url": IMAGE}
    response = call_as(svc, "GET", "/projects/infra%2Fnet%2Frouter/badges/render", "otto", **query)
    assert response.status == 200
    assert body(response) == {
        "name": None,
        "link_url": query["link_url"],
        "image_url": IMAGE,
        "rendered_link_url": "https://x.example/infra/net/%{unknown}",
        "rendered_image_url": body(response)["rendered_image_url"],
    }
    assert "%{" not in body(response)["rendered_image_url"]
    missing = call_as(svc, "GET", "/projects/infra%2Fsite/badges/render", "otto", link_url="x")
    assert (missing.status, body(missing)) == (400, {"error": "image_url is missing"})


def test_commit_sha_placeholder() -> None:
    svc = FakeService()
    created = call_as(
        svc,
        "POST",
        "/projects/acme%2Fwebsite/badges",
        "alice",
        body={"link_url": "https://x.example/%{commit_sha}", "image_url": "https://x.example/i"},
    )
    head = body(call_as(svc, "GET", "/projects/acme%2Fwebsite/repository/branches/main", "alice"))
    assert body(created)["rendered_link_url"] == f"https://x.example/{head['commit']['id']}"


@pytest.mark.parametrize(
    ("who", "where", "status"),
    [
        ("dan", "projects/infra%2Fsite", 403),  # Developer
        ("mia", "projects/infra%2Fnet%2Frouter", 201),  # Maintainer
        ("mia", "groups/infra%2Fnet", 403),  # groups need the Owner role
        ("olga", "groups/infra%2Fnet", 201),
        ("otto", "groups/infra%2Fvault", 404),
        (None, "projects/infra%2Fsite", 401),
    ],
)
def test_write_permissions(svc: FakeService, who: str | None, where: str, status: int) -> None:
    payload = {"link_url": LINK, "image_url": IMAGE}
    assert call_as(svc, "POST", f"/{where}/badges", who, body=payload).status == status


@pytest.mark.parametrize(
    ("payload", "answer"),
    [
        ({"link_url": LINK}, {"error": "image_url is missing"}),
        (
            {"link_url": "ftp://x.example", "image_url": "not a url"},
            {
                "message": {
                    "link_url": ["is blocked: Only allowed schemes are http, https"],
                    "image_url": ["must be a valid URL"],
                }
            },
        ),
        ({"link_url": " ", "image_url": IMAGE}, {"message": {"link_url": ["can't be blank"]}}),
    ],
)
def test_validation_changes_nothing(svc: FakeService, payload: dict[str, Any], answer: Any) -> None:
    response = call_as(svc, "POST", "/projects/infra%2Fsite/badges", "olga", body=payload)
    assert (response.status, body(response)) == (400, answer)
    assert body(call_as(svc, "GET", "/projects/infra%2Fsite/badges", "olga")) == []


def test_deleted_project_takes_its_badges(svc: FakeService) -> None:
    badge = add(svc, "projects/infra%2Fsite")
    call_as(svc, "DELETE", "/projects/infra%2Fsite", "root")
    assert badge["id"] not in svc.store.tables["badges"].rows


def test_scenario_badges() -> None:
    svc = FakeService(
        {
            "users": [{"username": "root", "name": "Root", "admin": True}],
            "groups": [
                {
                    "path": "g",
                    "visibility": "public",
                    "badges": [
                        {
                            "name": "chat",
                            "link_url": "https://c.example",
                            "image_url": "https://c.example/i.svg",
                        }
                    ],
                }
            ],
            "projects": [
                {
                    "path": "g/a",
                    "visibility": "public",
                    "badges": [
                        {
                            "link_url": "https://x.example/%{project_path}",
                            "image_url": "https://x.example/i",
                        }
                    ],
                }
            ],
        }
    )
    listed = body(svc.request("GET", "/projects/g%2Fa/badges"))
    assert [(b["kind"], b["rendered_link_url"]) for b in listed] == [
        ("group", "https://c.example"),
        ("project", "https://x.example/g/a"),
    ]


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="olga-token", session=svc.requests_session()
    )
    group = gl.groups.get("infra")
    group.badges.create({"link_url": "https://g.example", "image_url": "https://g.example/i.svg"})
    project = gl.projects.get("infra/site")
    badge = project.badges.create({"link_url": LINK, "image_url": IMAGE, "name": "ci"})
    assert badge.rendered_link_url.startswith("https://ci.example.com/infra/site/")
    badge.name = "pipeline"
    badge.save()
    assert project.badges.get(badge.id).name == "pipeline"
    assert [b.kind for b in project.badges.list()] == ["group", "project"]
    preview = project.badges.render(link_url=LINK, image_url=IMAGE)
    assert preview["rendered_link_url"] == badge.rendered_link_url
    project.badges.delete(badge.id)
    assert [b.kind for b in project.badges.list()] == ["group"]
