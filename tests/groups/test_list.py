"""``GET /groups``: who sees which groups, every filter and ordering, the exact 400 bodies,
offset headers and keyset pagination (anonymous callers, name ascending only)."""

from __future__ import annotations

import pytest

from fakeservice import FakeService
from fakeservice.groups.views import STATISTICS_KEYS

from .helpers import call, full_paths, get, group_id, links, query_of

BY_NAME = [
    "alpha",  # Alpha
    "alpha/beta",  # Beta
    "pub",  # Commons
    "alpha/delta",  # Delta
    "alpha/beta/gamma",  # Gamma
    "zeta/hidden",  # Hidden
    "omega",  # Omega
    "zeta",  # Zeta
]
ALPHA_TREE = ["alpha", "alpha/beta", "alpha/delta", "alpha/beta/gamma"]


@pytest.mark.parametrize(
    ("who", "query", "expected"),
    [
        (None, {}, ["alpha", "pub"]),
        (None, {"all_available": "false"}, ["alpha", "pub"]),
        ("root", {}, BY_NAME),
        ("root", {"all_available": "false"}, []),
        ("olga", {}, [*ALPHA_TREE, "zeta/hidden", "zeta"]),
        ("olga", {"all_available": "true"}, BY_NAME),
        ("dan", {}, ALPHA_TREE),
        ("mia", {}, ["alpha", "alpha/beta", "alpha/beta/gamma"]),
        ("pat", {}, ["zeta/hidden", "zeta"]),
        ("otto", {}, []),
        ("otto", {"all_available": "true"}, ["alpha", "alpha/beta", "pub", "omega"]),
        ("eve", {"all_available": "true"}, ["alpha", "pub"]),
    ],
)
def test_who_sees_which_groups(
    svc: FakeService, who: str | None, query: dict, expected: list
) -> None:
    assert full_paths(get(svc, "/groups", who, **query)) == expected


@pytest.mark.parametrize(
    ("who", "query", "expected"),
    [
        ("olga", {"owned": "true"}, ["alpha"]),
        ("olga", {"owned": "true", "all_available": "true"}, ["alpha"]),
        ("otto", {"owned": "true"}, []),
        (None, {"owned": "true"}, []),
        ("root", {"owned": "true"}, []),
        ("olga", {"min_access_level": 20}, [*ALPHA_TREE, "zeta/hidden", "zeta"]),
        ("olga", {"min_access_level": 30}, ALPHA_TREE),
        ("mia", {"min_access_level": 40}, ["alpha/beta", "alpha/beta/gamma"]),
        ("mia", {"min_access_level": 50}, []),
        (None, {"min_access_level": 50}, ["alpha", "pub"]),
    ],
)
def test_owned_and_min_access_level_take_precedence(
    svc: FakeService, who: str | None, query: dict, expected: list
) -> None:
    assert full_paths(get(svc, "/groups", who, **query)) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"order_by": "name", "sort": "desc"}, BY_NAME[::-1]),
        (
            {"order_by": "path"},
            [
                "alpha",
                "alpha/beta",
                "alpha/delta",
                "alpha/beta/gamma",
                "zeta/hidden",
                "omega",
                "pub",
                "zeta",
            ],
        ),
        (
            {"order_by": "id"},
            [
                "alpha",
                "alpha/beta",
                "alpha/beta/gamma",
                "alpha/delta",
                "zeta",
                "zeta/hidden",
                "omega",
                "pub",
            ],
        ),
        (
            {"order_by": "id", "sort": "desc"},
            [
                "pub",
                "omega",
                "zeta/hidden",
                "zeta",
                "alpha/delta",
                "alpha/beta/gamma",
                "alpha/beta",
                "alpha",
            ],
        ),
        ({"order_by": "similarity"}, BY_NAME),
        ({"top_level_only": "true"}, ["alpha", "pub", "omega", "zeta"]),
        ({"visibility": "internal"}, ["alpha/beta", "omega"]),
        ({"visibility": "private", "top_level_only": "true"}, ["zeta"]),
    ],
)
def test_orderings_and_filters(svc: FakeService, query: dict, expected: list) -> None:
    assert full_paths(get(svc, "/groups", "root", **query)) == expected


def test_top_level_only_for_a_member(svc: FakeService) -> None:
    assert full_paths(get(svc, "/groups", "olga", top_level_only="true")) == ["alpha", "zeta"]


def test_skip_groups_as_array_or_comma_list(svc: FakeService) -> None:
    alpha, pub = group_id(svc, "alpha"), group_id(svc, "pub")
    expected = [p for p in BY_NAME if p not in ("alpha", "pub")]
    assert full_paths(get(svc, "/groups", "root", **{"skip_groups[]": [alpha, pub]})) == expected
    assert full_paths(get(svc, "/groups", "root", skip_groups=f"{alpha},{pub}")) == expected


@pytest.mark.parametrize(
    ("who", "search", "expected"),
    [
        ("root", "alpha", ALPHA_TREE),  # full paths are searched
        ("root", "ALPHA beta", ["alpha/beta", "alpha/beta/gamma"]),  # every word must match
        ("root", "Hidden", ["zeta/hidden"]),
        ("root", "Zeta / Hid", ["zeta/hidden"]),  # full names are searched too
        ("root", "pub", ["pub"]),
        ("root", "ze", []),  # under three characters: exact match only
        ("root", "PUB", ["pub"]),
        ("otto", "zeta", []),  # private groups stay hidden
        (None, "alpha", ["alpha"]),
    ],
)
def test_search(svc: FakeService, who: str | None, search: str, expected: list) -> None:
    assert full_paths(get(svc, "/groups", who, search=search, all_available="true")) == expected


def test_similarity_ordering_ignores_sort(svc: FakeService) -> None:
    ranked = get(svc, "/groups", "root", search="beta", order_by="similarity", sort="desc")
    assert full_paths(ranked) == ["alpha/beta", "alpha/beta/gamma"]
    by_name = get(svc, "/groups", "root", search="beta", order_by="name", sort="desc")
    assert full_paths(by_name) == ["alpha/beta/gamma", "alpha/beta"]


def test_list_entry_shape(svc: FakeService) -> None:
    entry = get(svc, "/groups", None).json()[0]
    assert entry == {
        "id": group_id(svc, "alpha"),
        "name": "Alpha",
        "path": "alpha",
        "description": "The alpha group",
        "visibility": "public",
        "share_with_group_lock": False,
        "require_two_factor_authentication": False,
        "two_factor_grace_period": 48,
        "project_creation_level": "developer",
        "auto_devops_enabled": None,
        "subgroup_creation_level": "maintainer",
        "emails_disabled": False,
        "emails_enabled": True,
        "mentions_disabled": None,
        "lfs_enabled": True,
        "default_branch": None,
        "default_branch_protection": 2,
        "avatar_url": None,
        "web_url": "http://fakeservice.test/groups/alpha",
        "request_access_enabled": True,
        "full_name": "Alpha",
        "full_path": "alpha",
        "file_template_project_id": None,
        "parent_id": None,
        "created_at": "2026-03-01T12:00:00Z",
    }
    beta = get(svc, "/groups", "root", search="beta").json()[0]
    assert (beta["full_name"], beta["parent_id"]) == ("Alpha / Beta", group_id(svc, "alpha"))


def test_statistics_for_administrators_only(svc: FakeService) -> None:
    listed = {g["full_path"]: g for g in get(svc, "/groups", "root", statistics="true").json()}
    assert listed["omega"]["statistics"] == {
        **dict.fromkeys(STATISTICS_KEYS, 0),
        "storage_size": 100,
        "repository_size": 60,
    }
    assert set(listed["alpha"]["statistics"]) == set(STATISTICS_KEYS)
    assert all("statistics" not in g for g in get(svc, "/groups", "olga", statistics="true").json())
    assert all("statistics" not in g for g in get(svc, "/groups", "root").json())


def test_custom_attributes_view_and_filter_for_administrators_only(svc: FakeService) -> None:
    listed = get(svc, "/groups", "root", with_custom_attributes="true").json()
    attrs = {g["full_path"]: g["custom_attributes"] for g in listed}
    assert attrs["alpha"] == [{"key": "team", "value": "core"}, {"key": "tier", "value": "gold"}]
    assert attrs["omega"] == []
    assert all(
        "custom_attributes" not in g
        for g in get(svc, "/groups", "olga", with_custom_attributes="true").json()
    )
    filtered = get(svc, "/groups", "root", **{"custom_attributes[team]": "core"})
    assert full_paths(filtered) == ["alpha"]
    both = get(
        svc,
        "/groups",
        "root",
        **{"custom_attributes[team]": "core", "custom_attributes[tier]": "x"},
    )
    assert full_paths(both) == []
    ignored = get(svc, "/groups", "olga", **{"custom_attributes[team]": "nope"})
    assert full_paths(ignored) == [*ALPHA_TREE, "zeta/hidden", "zeta"]


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ({"order_by": "size"}, "order_by does not have a valid value"),
        ({"sort": "up"}, "sort does not have a valid value"),
        (
            {"order_by": "size", "sort": "up"},
            "order_by does not have a valid value, sort does not have a valid value",
        ),
        ({"min_access_level": 35}, "min_access_level does not have a valid value"),
        ({"min_access_level": "high"}, "min_access_level is invalid"),
        ({"visibility": "secret"}, "visibility does not have a valid value"),
        ({"owned": "maybe"}, "owned is invalid"),
        ({"all_available": "sometimes"}, "all_available is invalid"),
        ({"top_level_only": "2"}, "top_level_only is invalid"),
        ({"statistics": "x"}, "statistics is invalid"),
        ({"skip_groups[]": "x"}, "skip_groups is invalid"),
        ({"custom_attributes": "team"}, "custom_attributes is invalid"),
        ({"per_page": 0}, "per_page has a value not allowed"),
        ({"per_page": "many"}, "per_page is invalid"),
        ({"page": "first"}, "page is invalid"),
    ],
)
def test_parameter_errors(svc: FakeService, query: dict, error: str) -> None:
    response = get(svc, "/groups", "olga", **query)
    assert (response.status, response.json()) == (400, {"error": error})


def test_unknown_token_is_401_even_on_a_public_list(svc: FakeService) -> None:
    response = svc.request("GET", "/groups", token="nope")
    assert (response.status, response.json()) == (401, {"message": "401 Unauthorized"})


def test_offset_pagination_headers(svc: FakeService) -> None:
    response = get(svc, "/groups", "root", per_page=3, page=2)
    assert full_paths(response) == BY_NAME[3:6]
    assert [(k, v) for k, v in response.headers if k.startswith("X-")] == [
        ("X-Per-Page", "3"),
        ("X-Page", "2"),
        ("X-Next-Page", "3"),
        ("X-Prev-Page", "1"),
        ("X-Total", "8"),
        ("X-Total-Pages", "3"),
    ]
    rels = links(response)
    assert list(rels) == ["prev", "next", "first", "last"]
    assert rels["next"] == (
        "http://fakeservice.test/api/v4/groups?order_by=name&owned=false&page=3&per_page=3"
        "&sort=asc&statistics=false&with_custom_attributes=false"
    )
    assert query_of(rels["last"])["page"] == "3"


def test_offset_past_the_maximum_is_refused(svc: FakeService) -> None:
    response = get(svc, "/groups", None, page=5000, per_page=20)
    assert response.status == 405
    assert response.json() == {
        "error": "Offset pagination has a maximum allowed offset of 50000 for requests that "
        "return objects of type Group. Remaining records can be retrieved using keyset pagination."
    }


def test_keyset_pages_for_anonymous_callers(svc: FakeService) -> None:
    first = get(svc, "/groups", None, pagination="keyset", per_page=1)
    assert (first.status, full_paths(first)) == (200, ["alpha"])
    assert [k for k, _ in first.headers] == ["Content-Type", "Link"]
    rels = links(first)
    assert list(rels) == ["next"]
    params = query_of(rels["next"])
    assert params["pagination"] == "keyset" and params["per_page"] == "1" and "page" not in params
    second = svc.request("GET", rels["next"].removeprefix("http://fakeservice.test"))
    assert full_paths(second) == ["pub"]
    assert second.header("Link") is None
    whole = get(svc, "/groups", None, pagination="keyset", per_page=2, order_by="name", sort="asc")
    assert (full_paths(whole), whole.header("Link")) == (["alpha", "pub"], None)


def test_keyset_with_a_filter_and_past_the_end(svc: FakeService) -> None:
    first = get(svc, "/groups", None, pagination="keyset", per_page=1, search="alpha")
    assert (full_paths(first), first.header("Link")) == (["alpha"], None)
    cursor = query_of(links(get(svc, "/groups", None, pagination="keyset", per_page=1))["next"])[
        "cursor"
    ]
    last = get(svc, "/groups", None, pagination="keyset", per_page=5, cursor=cursor)
    assert full_paths(last) == ["pub"]


@pytest.mark.parametrize(
    ("who", "query"),
    [
        ("olga", {}),
        ("root", {}),
        (None, {"order_by": "id"}),
        (None, {"order_by": "path"}),
        (None, {"sort": "desc"}),
        (None, {"order_by": "similarity", "search": "alpha"}),
    ],
)
def test_keyset_unavailable(svc: FakeService, who: str | None, query: dict) -> None:
    response = get(svc, "/groups", who, pagination="keyset", **query)
    assert (response.status, response.json()) == (
        405,
        {"error": "Keyset pagination is not yet available for this type of request"},
    )


def test_keyset_with_a_broken_cursor(svc: FakeService) -> None:
    response = get(svc, "/groups", None, pagination="keyset", cursor="not-a-cursor")
    assert (response.status, response.json()) == (400, {"error": "cursor is invalid"})


def test_list_sees_changes(svc: FakeService) -> None:
    created = call(svc, "POST", "/groups", "otto", {"name": "Aardvark", "path": "aardvark"})
    assert created.status == 201
    assert full_paths(get(svc, "/groups", "otto")) == ["aardvark"]
    assert full_paths(get(svc, "/groups", "root"))[0] == "aardvark"
