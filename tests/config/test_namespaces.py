"""The namespaces API over raw requests: lists, lookups by id and path, owner extras,
visibility, the exists / suggests rule, and the same through python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call_as

from fakeservice import FakeService
from fakeservice.namespaces.models import clean_path

OWNER_KEYS = {
    "billable_members_count",
    "plan",
    "end_date",
    "trial_ends_on",
    "trial",
    "root_repository_size",
    "projects_count",
}
BASIC_KEYS = ["id", "name", "path", "kind", "full_path", "parent_id", "avatar_url", "web_url"]


def paths(response: Any) -> list[str]:
    assert response.status == 200, response.body
    return [item["full_path"] for item in body(response)]


def test_unauthenticated_is_401(svc: FakeService) -> None:
    for path in ("/namespaces", "/namespaces/infra", "/namespaces/infra/exists"):
        response = call_as(svc, "GET", path)
        assert (response.status, body(response)) == (401, {"message": "401 Unauthorized"})


def test_user_lists_own_namespace_and_direct_groups(svc: FakeService) -> None:
    assert paths(call_as(svc, "GET", "/namespaces", "olga")) == ["olga", "infra"]
    # a maintainer of a subgroup sees that subgroup, not its parent
    assert paths(call_as(svc, "GET", "/namespaces", "mia")) == ["mia", "infra/net"]
    assert paths(call_as(svc, "GET", "/namespaces", "otto")) == ["otto"]
    # a project membership gives no namespace
    assert paths(call_as(svc, "GET", "/namespaces", "eve")) == ["eve"]


def test_admin_lists_every_namespace_by_id(svc: FakeService) -> None:
    listed = body(call_as(svc, "GET", "/namespaces", "root"))
    assert [n["full_path"] for n in listed] == [
        "root", "olga", "mia", "dan", "otto", "eve",
        "infra", "infra/net", "infra/vault", "infra1", "labs",
    ]  # fmt: skip
    assert [n["id"] for n in listed] == sorted(n["id"] for n in listed)


def test_filters(svc: FakeService) -> None:
    assert paths(call_as(svc, "GET", "/namespaces", "root", search="infra")) == [
        "infra",
        "infra1",
        "labs",  # named infra2
    ]
    assert paths(call_as(svc, "GET", "/namespaces", "root", search="net")) == ["infra/net"]
    # fewer than three characters: the whole name or path must match
    assert paths(call_as(svc, "GET", "/namespaces", "root", search="ne")) == []
    top = paths(call_as(svc, "GET", "/namespaces", "root", top_level_only="true"))
    assert "infra/net" not in top and "infra" in top and "root" in top
    assert paths(call_as(svc, "GET", "/namespaces", "dan", owned_only="true")) == ["dan"]
    assert paths(call_as(svc, "GET", "/namespaces", "olga", owned_only="true")) == [
        "olga",
        "infra",
    ]
    bad = call_as(svc, "GET", "/namespaces", "olga", owned_only="maybe")
    assert (bad.status, body(bad)) == (400, {"error": "owned_only is invalid"})


def test_pagination_headers(svc: FakeService) -> None:
    response = call_as(svc, "GET", "/namespaces", "root", per_page="4", page="2")
    assert paths(response) == ["otto", "eve", "infra", "infra/net"]
    assert response.header("X-Total") == "11"
    assert response.header("X-Total-Pages") == "3"
    assert response.header("X-Next-Page") == "3"
    assert response.header("X-Prev-Page") == "1"


def test_basic_and_owner_fields(svc: FakeService) -> None:
    seen = body(call_as(svc, "GET", "/namespaces/infra", "dan"))
    assert list(seen) == BASIC_KEYS
    assert seen["web_url"] == "http://fakeservice.test/groups/infra"
    owned = body(call_as(svc, "GET", "/namespaces/infra", "olga"))
    assert list(owned)[: len(BASIC_KEYS)] == BASIC_KEYS
    assert set(owned) - set(BASIC_KEYS) == OWNER_KEYS | {"members_count_with_descendants"}
    assert owned["members_count_with_descendants"] == 3  # olga, dan, mia (in infra/net)
    assert owned["billable_members_count"] == 4  # and eve, a project member
    assert owned["projects_count"] == 2
    assert owned["plan"] == "default"
    mine = body(call_as(svc, "GET", "/namespaces/olga", "olga"))
    assert mine["kind"] == "user" and mine["web_url"] == "http://fakeservice.test/olga"
    assert set(mine) - set(BASIC_KEYS) == OWNER_KEYS
    assert mine["projects_count"] == 1 and mine["billable_members_count"] == 1


def test_lookup_by_id_and_encoded_path(svc: FakeService) -> None:
    by_path = body(call_as(svc, "GET", "/namespaces/infra%2Fnet", "mia"))
    assert by_path["full_path"] == "infra/net" and by_path["parent_id"] is not None
    by_id = body(call_as(svc, "GET", f"/namespaces/{by_path['id']}", "mia"))
    assert by_id == by_path
    assert body(call_as(svc, "GET", "/namespaces/INFRA%2FNET", "mia")) == by_path


@pytest.mark.parametrize(
    ("who", "key", "status"),
    [
        ("otto", "infra", 200),  # public group
        ("otto", "infra%2Fnet", 200),  # internal group, signed-in user
        ("eve", "infra%2Fnet", 404),  # external users do not see internal groups
        ("otto", "infra%2Fvault", 404),  # private group, no membership
        ("dan", "infra%2Fvault", 200),  # inherited membership
        ("otto", "olga", 404),  # someone else's user namespace
        ("root", "olga", 200),
        ("olga", "nowhere", 404),
        ("olga", "999999", 404),
    ],
)
def test_visibility(svc: FakeService, who: str, key: str, status: int) -> None:
    response = call_as(svc, "GET", f"/namespaces/{key}", who)
    assert response.status == status
    if status == 404:
        assert body(response) == {"message": "404 Namespace Not Found"}


def test_exists_and_suggests(svc: FakeService) -> None:
    def exists(path: str, **query: Any) -> Any:
        response = call_as(svc, "GET", f"/namespaces/{path}/exists", "otto", **query)
        assert response.status == 200, response.body
        return body(response)

    # infra1 is a path and infra2 a name at the top level: the next free is infra3
    assert exists("infra") == {"exists": True, "suggests": ["infra3"]}
    assert exists("INFRA") == {"exists": True, "suggests": ["INFRA3"]}
    assert exists("olga") == {"exists": True, "suggests": ["olga1"]}  # user namespaces count
    assert exists("fresh") == {"exists": False, "suggests": []}
    infra = body(call_as(svc, "GET", "/namespaces/infra", "root"))["id"]
    assert exists("net", parent_id=infra) == {"exists": True, "suggests": ["net1"]}
    assert exists("net") == {"exists": False, "suggests": []}
    assert exists("infra", parent_id=infra) == {"exists": False, "suggests": []}
    bad = call_as(svc, "GET", "/namespaces/net/exists", "otto", parent_id="x")
    assert (bad.status, body(bad)) == (400, {"error": "parent_id is invalid"})


def test_exists_counts_a_created_group(svc: FakeService) -> None:
    created = call_as(svc, "POST", "/groups", "olga", body={"name": "Fresh", "path": "fresh"})
    assert created.status == 201
    response = call_as(svc, "GET", "/namespaces/fresh/exists", "otto")
    assert body(response) == {"exists": True, "suggests": ["fresh1"]}


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("my group", "mygroup"),
        ("jane@example.com", "jane"),
        ("--lead", "lead"),
        ("repo.git", "repo"),
        ("feed.atom.git.", "feed"),
        ("...", "blank"),
        ("Été", "t"),
    ],
)
def test_clean_path(raw: str, cleaned: str) -> None:
    assert clean_path(raw) == cleaned


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=30))
def test_clean_path_keeps_to_the_path_rules(raw: str) -> None:
    from fakeservice.groups.models import PATH_CHARS

    cleaned = clean_path(raw)
    assert cleaned and set(cleaned) <= PATH_CHARS
    assert not cleaned.startswith("-")
    assert not cleaned.endswith((".", ".git", ".atom"))
    assert clean_path(cleaned) == cleaned


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="olga-token", session=svc.requests_session()
    )
    assert [n.full_path for n in gl.namespaces.list(get_all=True)] == ["olga", "infra"]
    assert [n.full_path for n in gl.namespaces.list(search="infra", get_all=True)] == ["infra"]
    net = gl.namespaces.get("infra/net")
    assert (net.kind, net.full_path) == ("group", "infra/net")
    assert gl.namespaces.get(net.id).path == "net"
    found = gl.namespaces.exists("infra")
    assert (found.exists, found.suggests) == (True, ["infra3"])
    with pytest.raises(gitlab.GitlabGetError) as caught:
        gl.namespaces.get("infra/nothing")
    assert caught.value.response_code == 404
