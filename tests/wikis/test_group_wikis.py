"""Group wikis over raw HTTP: the same operations as project wikis, a paid-tier feature
(403 on the free plan), the group's wiki_access_level, Developer writes."""

from __future__ import annotations

from support.calls import body, call_as

from fakeservice import FakeService
from fakeservice.instance.models import instance
from fakeservice.wikis.models import wiki_of

DOCS = "/groups/docs/wikis"


def test_group_wiki_operations(svc: FakeService) -> None:
    assert body(call_as(svc, "GET", DOCS, None)) == [
        {"format": "markdown", "slug": "handbook", "title": "handbook"}
    ]
    made = call_as(svc, "POST", DOCS, "dan", body={"title": "Team Rules", "content": "be kind"})
    assert made.status == 201
    assert body(made)["slug"] == "Team-Rules"
    edited = call_as(svc, "PUT", f"{DOCS}/Team-Rules", "dan", body={"title": "Rules"})
    assert body(edited) == {
        "format": "markdown",
        "slug": "Rules",
        "title": "Rules",
        "content": "be kind",
        "encoding": "UTF-8",
    }
    assert call_as(svc, "DELETE", f"{DOCS}/Rules", "dan").status == 204
    group = body(call_as(svc, "GET", "/groups/docs", "root"))
    repo = wiki_of(svc.store, "group", group["id"]).repo
    assert [c.message for c in repo.commits("HEAD")] == [
        "dan deleted page: Rules",
        "dan updated page: Rules",
        "dan created page: Team Rules",
        "olga created page: handbook",
    ]
    # project wikis of the group are separate
    assert [p["slug"] for p in body(call_as(svc, "GET", "/projects/docs%2Fsite/wikis", "dan"))] == [
        "home",
        "ops/On-Call",
    ]


def test_group_wiki_roles_and_visibility(svc: FakeService) -> None:
    refused = call_as(svc, "POST", DOCS, "rita", body={"title": "t", "content": "c"})
    assert (refused.status, body(refused)) == (403, {"message": "403 Forbidden"})
    assert call_as(svc, "GET", "/groups/closed/wikis", "otto").status == 404
    assert call_as(svc, "GET", "/groups/closed/wikis", "root").status == 200
    missing = call_as(svc, "GET", f"{DOCS}/nope", "otto")
    assert (missing.status, body(missing)) == (404, {"message": "404 Wiki Page Not Found"})


def test_group_wiki_access_level(svc: FakeService) -> None:
    changed = call_as(svc, "PUT", "/groups/docs", "olga", body={"wiki_access_level": "private"})
    assert body(changed)["wiki_access_level"] == "private"
    assert call_as(svc, "GET", DOCS, "otto").status == 403
    assert call_as(svc, "GET", DOCS, "rita").status == 200
    call_as(svc, "PUT", "/groups/docs", "olga", body={"wiki_access_level": "disabled"})
    assert call_as(svc, "GET", DOCS, "olga").status == 403


def test_free_plan_has_no_group_wikis(svc: FakeService) -> None:
    instance(svc.store).plan = "free"
    response = call_as(svc, "GET", DOCS, "olga")
    assert (response.status, body(response)) == (403, {"message": "403 Forbidden"})
    assert call_as(svc, "POST", DOCS, "olga", body={"title": "t", "content": "c"}).status == 403
    assert call_as(svc, "GET", "/projects/docs%2Fsite/wikis", "olga").status == 200


def test_deleting_the_group_drops_its_wiki(svc: FakeService) -> None:
    group = body(call_as(svc, "GET", "/groups/docs", "root"))
    assert call_as(svc, "DELETE", f"/groups/{group['id']}", "root").status in (202, 204)
    assert wiki_of(svc.store, "group", group["id"]).repo.is_empty
