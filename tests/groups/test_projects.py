"""``GET /groups/:id/projects`` and ``GET /groups/:id/projects/shared``."""

from __future__ import annotations

import pytest

from fakeservice import FakeService

from .helpers import call, full_paths, get, project_id

# created_at order (oldest first): site, tools, secret, beta/api, gamma/core, hidden/proj,
# omega/lib, pub/shared
ALL_OWN = ["alpha/secret", "alpha/tools", "alpha/site"]


@pytest.mark.parametrize(
    ("who", "query", "expected"),
    [
        (None, {}, ["pub/shared", "alpha/site"]),
        ("eve", {}, ["pub/shared", "alpha/site"]),
        ("otto", {}, ["pub/shared", "omega/lib", "alpha/tools", "alpha/site"]),
        ("olga", {}, ["pub/shared", "omega/lib", *ALL_OWN]),
        ("root", {}, ["pub/shared", "omega/lib", *ALL_OWN]),
        ("olga", {"with_shared": "false"}, ALL_OWN),
        (
            "olga",
            {"include_subgroups": "true"},
            ["pub/shared", "omega/lib", "alpha/beta/gamma/core", "alpha/beta/api", *ALL_OWN],
        ),
        (
            "otto",
            {"include_subgroups": "true", "with_shared": "false"},
            ["alpha/beta/api", "alpha/tools", "alpha/site"],
        ),
        (
            "root",
            {
                "include_subgroups": "true",
                "with_shared": "false",
                "order_by": "name",
                "sort": "asc",
            },
            [
                "alpha/beta/api",
                "alpha/beta/gamma/core",
                "alpha/secret",
                "alpha/site",
                "alpha/tools",
            ],
        ),
        (
            "olga",
            {"sort": "asc"},
            ["alpha/site", "alpha/tools", "alpha/secret", "omega/lib", "pub/shared"],
        ),
        ("olga", {"order_by": "id"}, ["pub/shared", "omega/lib", *ALL_OWN]),
        (
            "olga",
            {"order_by": "path", "sort": "asc"},
            ["omega/lib", "alpha/secret", "pub/shared", "alpha/site", "alpha/tools"],
        ),
        ("olga", {"owned": "true"}, ALL_OWN),
        ("dan", {"owned": "true"}, []),
        ("dan", {"min_access_level": 30}, ["pub/shared", *ALL_OWN]),
        ("dan", {"min_access_level": 20}, ["pub/shared", "omega/lib", *ALL_OWN]),
        (None, {"owned": "true"}, ["pub/shared", "alpha/site"]),
        ("olga", {"visibility": "internal"}, ["omega/lib", "alpha/tools"]),
        ("olga", {"archived": "true"}, ["alpha/tools"]),
        ("olga", {"archived": "false"}, ["pub/shared", "omega/lib", "alpha/secret", "alpha/site"]),
        ("olga", {"search": "sec"}, ["alpha/secret"]),
        (
            "olga",
            {"with_issues_enabled": "true"},
            ["pub/shared", "omega/lib", "alpha/tools", "alpha/site"],
        ),
        ("olga", {"with_security_reports": "true"}, []),
        ("root", {"custom_attributes[kind]": "web"}, ["alpha/site"]),
        ("olga", {"custom_attributes[kind]": "none"}, ["pub/shared", "omega/lib", *ALL_OWN]),
    ],
)
def test_group_projects(svc: FakeService, who: str | None, query: dict, expected: list) -> None:
    assert full_paths(get(svc, "/groups/alpha/projects", who, **query)) == expected


def test_expired_shares_are_left_out(svc: FakeService) -> None:
    assert "omega/old" not in full_paths(get(svc, "/groups/alpha/projects/shared", "root"))
    assert "omega/old" not in full_paths(get(svc, "/groups/alpha/projects", "root"))
    assert "omega/old" in full_paths(get(svc, "/groups/omega/projects", "root"))


def test_similarity_ranks_matches_and_ignores_sort(svc: FakeService) -> None:
    ranked = get(
        svc, "/groups/alpha/projects", "olga", order_by="similarity", search="s", sort="asc"
    )
    # "site" shares most trigrams with "s"; "shared" and "secret" tie (newest first); "tools" none
    assert full_paths(ranked) == ["alpha/site", "pub/shared", "alpha/secret", "alpha/tools"]


def test_similarity_without_search_orders_by_name(svc: FakeService) -> None:
    response = get(svc, "/groups/alpha/projects", "olga", order_by="similarity", sort="desc")
    assert full_paths(response) == [
        "omega/lib",
        "alpha/secret",
        "pub/shared",
        "alpha/site",
        "alpha/tools",
    ]


def test_starred(svc: FakeService) -> None:
    assert (
        call(svc, "POST", f"/projects/{project_id(svc, 'alpha/site')}/star", "olga").status == 201
    )
    assert full_paths(get(svc, "/groups/alpha/projects", "olga", starred="true")) == ["alpha/site"]
    assert full_paths(get(svc, "/groups/alpha/projects", "dan", starred="true")) == []


def test_entries_full_simple_and_custom_attributes(svc: FakeService) -> None:
    full = get(svc, "/groups/alpha/projects", "root", with_custom_attributes="true").json()
    by_path = {p["path_with_namespace"]: p for p in full}
    assert by_path["alpha/site"]["custom_attributes"] == [{"key": "kind", "value": "web"}]
    assert by_path["alpha/site"]["namespace"]["full_path"] == "alpha"
    assert by_path["pub/shared"]["namespace"]["full_path"] == "pub"  # shared in from elsewhere
    assert by_path["pub/shared"]["shared_with_groups"][0]["group_full_path"] == "alpha"
    assert {"issues_enabled", "merge_requests_enabled", "archived", "visibility"} <= set(
        by_path["alpha/site"]
    )
    assert all(
        "custom_attributes" not in p
        for p in get(svc, "/groups/alpha/projects", "olga", with_custom_attributes="true").json()
    )
    simple = get(svc, "/groups/alpha/projects", "olga", simple="true").json()
    assert "visibility" not in simple[0] and "archived" not in simple[0]
    assert {"id", "name", "path", "path_with_namespace", "web_url"} <= set(simple[0])


def test_pagination(svc: FakeService) -> None:
    response = get(svc, "/groups/alpha/projects", "olga", per_page=2, page=3)
    assert full_paths(response) == ["alpha/site"]
    assert (
        response.header("X-Total"),
        response.header("X-Total-Pages"),
        response.header("X-Prev-Page"),
    ) == ("5", "3", "2")
    assert response.header("X-Next-Page") == ""


@pytest.mark.parametrize(
    ("who", "query", "expected"),
    [
        ("olga", {}, ["pub/shared", "omega/lib"]),
        ("otto", {}, ["pub/shared", "omega/lib"]),
        (None, {}, ["pub/shared"]),
        ("eve", {}, ["pub/shared"]),
        ("olga", {"order_by": "name", "sort": "asc"}, ["omega/lib", "pub/shared"]),
        ("dan", {"min_access_level": 30}, ["pub/shared"]),
        ("olga", {"visibility": "public"}, ["pub/shared"]),
        ("olga", {"search": "lib"}, ["omega/lib"]),
        (
            "olga",
            {"include_subgroups": "true", "owned": "true", "with_shared": "false"},
            ["pub/shared", "omega/lib"],
        ),
    ],
)
def test_shared_projects(svc: FakeService, who: str | None, query: dict, expected: list) -> None:
    assert full_paths(get(svc, "/groups/alpha/projects/shared", who, **query)) == expected


@pytest.mark.parametrize(
    ("endpoint", "query", "error"),
    [
        ("projects", {"order_by": "star_count"}, "order_by does not have a valid value"),
        ("projects", {"sort": "random"}, "sort does not have a valid value"),
        ("projects", {"with_shared": "perhaps"}, "with_shared is invalid"),
        ("projects", {"include_subgroups": "2"}, "include_subgroups is invalid"),
        ("projects", {"min_access_level": 7}, "min_access_level does not have a valid value"),
        ("projects", {"visibility": "hidden"}, "visibility does not have a valid value"),
        ("projects", {"archived": "old"}, "archived is invalid"),
        ("projects", {"with_security_reports": "x"}, "with_security_reports is invalid"),
        (
            "projects",
            {"visibility": "hidden", "order_by": "x", "simple": "no way"},
            "visibility does not have a valid value, order_by does not have a valid value, simple is invalid",
        ),
        ("projects/shared", {"order_by": "similarity"}, "order_by does not have a valid value"),
        ("projects/shared", {"starred": "x"}, "starred is invalid"),
    ],
)
def test_parameter_errors(svc: FakeService, endpoint: str, query: dict, error: str) -> None:
    response = get(svc, f"/groups/alpha/{endpoint}", "olga", **query)
    assert (response.status, response.json()) == (400, {"error": error})


@pytest.mark.parametrize("endpoint", ["projects", "projects/shared"])
def test_invisible_group_is_404(svc: FakeService, endpoint: str) -> None:
    response = get(svc, f"/groups/zeta/{endpoint}", "otto")
    assert (response.status, response.json()) == (404, {"message": "404 Group Not Found"})
    assert full_paths(get(svc, "/groups/zeta%2Fhidden/projects", "pat")) == ["zeta/hidden/proj"]
