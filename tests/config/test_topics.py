"""Topics: fed by project topics (the first spelling wins), counted, listed most used
first, filtered on ``GET /projects``, and managed by administrators (create, update,
delete, merge); declared in scenarios; through raw HTTP and python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import body, call_as

from fakeservice import FakeService

ROOT = "root"


def put_topics(svc: FakeService, project: str, topics: list[str], who: str = ROOT) -> Any:
    response = call_as(svc, "PUT", f"/projects/{project}", who, body={"topics": topics})
    assert response.status == 200, response.body
    return body(response)


def listed(svc: FakeService, **query: Any) -> list[tuple[str, int]]:
    response = call_as(svc, "GET", "/topics", None, **query)
    assert response.status == 200, response.body
    return [(t["name"], t["total_projects_count"]) for t in body(response)]


def test_project_topics_create_and_count_topics(svc: FakeService) -> None:
    assert listed(svc) == []
    assert put_topics(svc, "infra%2Fsite", ["Terraform", "aws"])["topics"] == ["Terraform", "aws"]
    # an existing topic keeps its spelling
    assert put_topics(svc, "olga%2Fnotes", ["terraform"])["topics"] == ["Terraform"]
    put_topics(svc, "infra%2Fnet%2Frouter", ["aws", "net"])
    # most non-private projects first (olga/notes is private), then by id
    assert listed(svc) == [("aws", 2), ("Terraform", 2), ("net", 1)]
    topic = body(call_as(svc, "GET", "/topics", None, search="terra"))[0]
    assert topic == {
        "id": topic["id"],
        "name": "Terraform",
        "title": "Terraform",
        "description": None,
        "total_projects_count": 2,
        "organization_id": 1,
        "avatar_url": None,
    }
    assert body(call_as(svc, "GET", f"/topics/{topic['id']}", None)) == topic
    put_topics(svc, "infra%2Fsite", [])
    assert listed(svc) == [("aws", 1), ("net", 1), ("Terraform", 1)]
    assert listed(svc, without_projects="true") == []


def test_deleting_a_project_uncounts_it(svc: FakeService) -> None:
    put_topics(svc, "infra%2Fsite", ["web"])
    assert call_as(svc, "DELETE", "/projects/infra%2Fsite", ROOT).status == 202
    assert listed(svc) == [("web", 0)]
    assert listed(svc, without_projects="true") == [("web", 0)]


def test_projects_filtered_by_topic(svc: FakeService) -> None:
    put_topics(svc, "infra%2Fsite", ["web", "docs"])
    put_topics(svc, "infra%2Fnet%2Frouter", ["web"])
    put_topics(svc, "olga%2Fnotes", ["web", "docs"])

    def paths(who: str | None, **query: Any) -> list[str]:
        response = call_as(svc, "GET", "/projects", who, order_by="id", sort="asc", **query)
        assert response.status == 200, response.body
        return [p["path_with_namespace"] for p in body(response)]

    assert paths(ROOT, topic="WEB") == ["infra/site", "infra/net/router", "olga/notes"]
    assert paths(ROOT, topic="web,docs") == ["infra/site", "olga/notes"]
    assert paths(None, topic="web") == ["infra/site"]  # anonymous: public only
    assert paths("otto", topic="web") == ["infra/site", "infra/net/router"]
    assert paths("olga", topic="web", owned="true") == ["infra/site", "infra/net/router", "olga/notes"]  # fmt: skip
    docs = next(t for t in body(call_as(svc, "GET", "/topics", None)) if t["name"] == "docs")
    assert paths(ROOT, topic_id=docs["id"]) == ["infra/site", "olga/notes"]
    assert paths(ROOT, topic_id=99999) == []
    assert paths(ROOT, topic="nothing") == []


def test_admin_create_update_delete(svc: FakeService) -> None:
    made = call_as(svc, "POST", "/topics", ROOT, body={"name": "k8s", "title": "Kubernetes"})
    assert made.status == 201, made.body
    topic = body(made)
    assert (topic["name"], topic["title"], topic["total_projects_count"]) == (
        "k8s",
        "Kubernetes",
        0,
    )
    # projects now use its spelling
    assert put_topics(svc, "infra%2Fsite", ["K8S"])["topics"] == ["k8s"]
    changed = call_as(
        svc, "PUT", f"/topics/{topic['id']}", ROOT, body={"name": "kubernetes", "description": "d"}
    )
    assert changed.status == 200
    assert (body(changed)["name"], body(changed)["description"]) == ("kubernetes", "d")
    assert body(call_as(svc, "GET", "/projects/infra%2Fsite", ROOT))["topics"] == ["kubernetes"]
    assert call_as(svc, "DELETE", f"/topics/{topic['id']}", ROOT).status == 204
    assert body(call_as(svc, "GET", "/projects/infra%2Fsite", ROOT))["topics"] == []
    gone = call_as(svc, "GET", f"/topics/{topic['id']}", None)
    assert (gone.status, body(gone)) == (404, {"message": "404 Not found"})


@pytest.mark.parametrize(
    ("method", "path", "payload"),
    [
        ("POST", "/topics", {"name": "x", "title": "X"}),
        ("PUT", "/topics/1", {"title": "X"}),
        ("DELETE", "/topics/1", None),
        ("POST", "/topics/merge", {"source_topic_id": 1, "target_topic_id": 2}),
    ],
)
def test_admin_only(svc: FakeService, method: str, path: str, payload: Any) -> None:
    put_topics(svc, "infra%2Fsite", ["one", "two"])
    assert call_as(svc, method, path, "olga", body=payload).status == 403
    assert call_as(svc, method, path, None, body=payload).status == 401
    assert listed(svc) == [("one", 1), ("two", 1)]


@pytest.mark.parametrize(
    ("payload", "answer"),
    [
        ({"name": "x"}, {"error": "title is missing"}),
        ({"title": "x"}, {"error": "name is missing"}),
        ({"name": "Web", "title": "x"}, {"message": {"name": ["has already been taken"]}}),
        (
            {"name": "n" * 256, "title": "x"},
            {"message": {"name": ["is too long (maximum is 255 characters)"]}},
        ),
        ({"name": " ", "title": "x"}, {"message": {"name": ["can't be blank"]}}),
    ],
)
def test_create_errors(svc: FakeService, payload: dict[str, Any], answer: Any) -> None:
    put_topics(svc, "infra%2Fsite", ["web"])
    response = call_as(svc, "POST", "/topics", ROOT, body=payload)
    assert (response.status, body(response)) == (400, answer)
    assert listed(svc) == [("web", 1)]


def test_merge(svc: FakeService) -> None:
    put_topics(svc, "infra%2Fsite", ["tf", "terraform"])
    put_topics(svc, "infra%2Fnet%2Frouter", ["tf"])
    ids = {t["name"]: t["id"] for t in body(call_as(svc, "GET", "/topics", None))}
    same = {"source_topic_id": ids["tf"], "target_topic_id": ids["tf"]}
    refused = call_as(svc, "POST", "/topics/merge", ROOT, body=same)
    assert (refused.status, body(refused)) == (
        400,
        {"message": "The source topic and the target topic are identical."},
    )
    merged = call_as(
        svc,
        "POST",
        "/topics/merge",
        ROOT,
        body={"source_topic_id": ids["tf"], "target_topic_id": ids["terraform"]},
    )
    assert merged.status == 201
    assert (body(merged)["name"], body(merged)["total_projects_count"]) == ("terraform", 2)
    assert listed(svc) == [("terraform", 2)]
    assert body(call_as(svc, "GET", "/projects/infra%2Fsite", ROOT))["topics"] == ["terraform"]
    missing = call_as(svc, "POST", "/topics/merge", ROOT, body={"source_topic_id": 999, "target_topic_id": ids["terraform"]})  # fmt: skip
    assert missing.status == 404


def test_scenario_topics() -> None:
    svc = FakeService(
        {
            "users": [{"username": "root", "name": "Root", "admin": True}],
            "groups": [{"path": "g", "visibility": "public"}],
            "topics": [{"name": "Terraform", "title": "Terraform", "description": "IaC"}],
            "projects": [
                {"path": "g/a", "visibility": "public", "topics": ["terraform", "aws"]},
                {"path": "g/b", "visibility": "public", "topics": ["aws"]},
            ],
        }
    )
    topics = body(svc.request("GET", "/topics"))
    assert [
        (t["name"], t["title"], t["description"], t["total_projects_count"]) for t in topics
    ] == [
        ("aws", "aws", None, 2),
        ("Terraform", "Terraform", "IaC", 1),
    ]
    assert body(svc.request("GET", "/projects/g%2Fa"))["topics"] == ["Terraform", "aws"]


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="root-token", session=svc.requests_session()
    )
    topic = gl.topics.create({"name": "iac", "title": "Infrastructure as code"})
    project = gl.projects.get("infra/site")
    project.topics = ["iac"]
    project.save()
    assert gl.topics.get(topic.id).total_projects_count == 1
    topic.description = "Terraform and friends"
    topic.save()
    assert [t.description for t in gl.topics.list(search="iac")] == ["Terraform and friends"]
    assert [p.path for p in gl.projects.list(topic="iac")] == ["site"]
    other = gl.topics.create({"name": "tf", "title": "tf"})
    gl.topics.merge(other.id, topic.id)
    assert [t.name for t in gl.topics.list()] == ["iac"]
    gl.topics.delete(topic.id)
    assert gl.topics.list() == []
