"""Offset and keyset pagination (seed 000 §2.2, §8; FIDELITY "Pagination"): headers and
their order, ``Link`` rules, ``page``/``per_page`` edge cases, the 10,000-row count limit,
the maximum offset, keyset on projects, and properties over every page size."""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import chain
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fakeservice import FakeService

from .helpers import (
    BASE,
    TRACKED,
    follow,
    header_names,
    link_map,
    link_query,
    parse_link,
    raw_request,
)

OFFSET_HEADERS = [
    "X-Per-Page",
    "X-Page",
    "X-Next-Page",
    "X-Prev-Page",
    "Link",
    "X-Total",
    "X-Total-Pages",
]
USER_DEFAULTS = (
    "active=false&admins=false&blocked=false&exclude_external=false&exclude_internal=false"
    "&external=false&order_by=id"
)
USER_TAIL = (
    "sort=desc&with_custom_attributes=false&without_project_bots=false&without_projects=false"
)
MAX_OFFSET_ERROR = (
    "Offset pagination has a maximum allowed offset of 50000 for requests that return objects of "
    "type Project. Remaining records can be retrieved using keyset pagination."
)
KEYSET_UNAVAILABLE = {"error": "Keyset pagination is not yet available for this type of request"}


def users_link(page: int, per_page: int, extra: str = "", host: str = BASE) -> str:
    return f"{host}/api/v4/users?{USER_DEFAULTS}&page={page}&per_page={per_page}{extra}&{USER_TAIL}"


def pagination_headers(response: Any) -> list[str]:
    return [name for name in header_names(response) if name != "Content-Type"]


@pytest.fixture(scope="module")
def shared() -> Iterator[FakeService]:
    """The default scenario, read only: 45 users, 32 public of 34 projects."""
    service = FakeService()
    TRACKED.append(service)
    yield service
    TRACKED.remove(service)


# -- offset headers -------------------------------------------------------------------------------------


def test_headers_values_and_order(shared: FakeService) -> None:
    response = shared.request("GET", "/users?per_page=10&page=2", token="alice-token")
    assert response.status == 200
    assert header_names(response) == ["Content-Type", *OFFSET_HEADERS]
    assert [response.header(h) for h in OFFSET_HEADERS if h != "Link"] == [
        "10", "2", "3", "1", "45", "5"
    ]  # fmt: skip
    assert len(response.json()) == 10
    assert response.header("Link") == ", ".join(
        [
            f'<{users_link(1, 10)}>; rel="prev"',
            f'<{users_link(3, 10)}>; rel="next"',
            f'<{users_link(1, 10)}>; rel="first"',
            f'<{users_link(5, 10)}>; rel="last"',
        ]
    )


def test_first_and_last_pages(shared: FakeService) -> None:
    first = shared.request("GET", "/users?per_page=20", token="alice-token")
    assert (first.header("X-Next-Page"), first.header("X-Prev-Page")) == ("2", "")
    assert [rel for _, rel in parse_link(first.header("Link"))] == ["next", "first", "last"]
    last = shared.request("GET", "/users?per_page=20&page=3", token="alice-token")
    assert (last.header("X-Next-Page"), last.header("X-Prev-Page")) == ("", "2")
    assert [rel for _, rel in parse_link(last.header("Link"))] == ["prev", "first", "last"]
    assert len(last.json()) == 5


def test_a_single_page(shared: FakeService) -> None:
    response = shared.request("GET", "/users?per_page=100", token="alice-token")
    assert (response.header("X-Total"), response.header("X-Total-Pages")) == ("45", "1")
    links = link_map(response)
    assert list(links) == ["first", "last"]
    assert link_query(links["last"])["page"] == "1"


def test_an_empty_collection_has_one_page(shared: FakeService) -> None:
    response = shared.request("GET", "/users?search=nobody-at-all", token="alice-token")
    assert response.json() == []
    assert [response.header(h) for h in ("X-Total", "X-Total-Pages", "X-Next-Page")] == [
        "0",
        "1",
        "",
    ]
    assert [rel for _, rel in parse_link(response.header("Link"))] == ["first", "last"]


def test_link_uses_the_request_host_and_scheme(shared: FakeService) -> None:
    response = raw_request(
        shared,
        "GET",
        "/api/v4/users",
        query_string="per_page=10&page=2",
        headers={"PRIVATE-TOKEN": "alice-token"},
        host="gitlab.example.org:8443",
        scheme="https",
    )
    host = "https://gitlab.example.org:8443"
    assert parse_link(response.header("Link"))[0] == (users_link(1, 10, host=host), "prev")


def test_link_keeps_every_parameter_sorted(shared: FakeService) -> None:
    response = shared.request(
        "GET", "/users?search=dev&per_page=5&exclude_external=true", token="alice-token"
    )
    url = link_map(response)["next"]
    query = url.split("?", 1)[1]
    keys = [pair.split("=", 1)[0] for pair in query.split("&")]
    assert keys == sorted(keys)
    assert link_query(url)["search"] == "dev"
    assert link_query(url)["exclude_external"] == "true"
    assert link_query(url)["order_by"] == "id"
    assert (link_query(url)["page"], link_query(url)["per_page"]) == ("2", "5")


def test_link_encodes_hash_parameters(shared: FakeService) -> None:
    response = shared.request("GET", "/users?custom_attributes[team]=red", token="root-token")
    assert "custom_attributes%5Bteam%5D=red" in response.header("Link")


def test_link_includes_path_parameters(shared: FakeService) -> None:
    response = shared.request("GET", "/users/alice/projects?per_page=1")
    query = link_query(link_map(response)["first"])
    assert query["user_id"] == "alice"
    assert link_map(response)["first"].startswith(f"{BASE}/api/v4/users/alice/projects?")
    assert (query["order_by"], query["sort"]) == ("created_at", "desc")


def test_link_of_an_encoded_path_keeps_the_raw_path(shared: FakeService) -> None:
    response = shared.request("GET", "/users/alice/projects")
    assert response.status == 200
    again = follow(shared, link_map(response)["first"])
    assert again.json() == response.json()


# -- page and per_page ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("asked", "used"), [("100", "100"), ("101", "100"), ("5000", "100")])
def test_per_page_is_clamped_to_100(shared: FakeService, asked: str, used: str) -> None:
    response = shared.request("GET", f"/projects?per_page={asked}")
    assert response.header("X-Per-Page") == used
    assert link_query(link_map(response)["first"])["per_page"] == used
    assert len(response.json()) == 32


def test_per_page_zero_is_refused(shared: FakeService) -> None:
    response = shared.request("GET", "/users?per_page=0", token="alice-token")
    assert response.status == 400
    assert response.json() == {"error": "per_page has a value not allowed"}


@pytest.mark.parametrize("value", ["abc", "1.5", "ten"])
def test_per_page_not_an_integer(shared: FakeService, value: str) -> None:
    response = shared.request("GET", f"/users?per_page={value}", token="alice-token")
    assert response.status == 400
    assert response.json() == {"error": "per_page is invalid"}


@pytest.mark.parametrize("value", ["-1", "-50"])
def test_a_negative_per_page_falls_back_to_20(shared: FakeService, value: str) -> None:
    response = shared.request("GET", f"/users?per_page={value}", token="alice-token")
    assert response.header("X-Per-Page") == "20"
    assert len(response.json()) == 20


@pytest.mark.parametrize("value", ["0", "-3"])
def test_a_page_below_1_is_page_1(shared: FakeService, value: str) -> None:
    response = shared.request("GET", f"/users?page={value}&per_page=10", token="alice-token")
    assert (response.header("X-Page"), response.header("X-Prev-Page")) == ("1", "")
    assert (
        response.json() == shared.request("GET", "/users?per_page=10", token="alice-token").json()
    )


def test_page_not_an_integer(shared: FakeService) -> None:
    response = shared.request("GET", "/users?page=two", token="alice-token")
    assert response.status == 400
    assert response.json() == {"error": "page is invalid"}


def test_a_page_past_the_end(shared: FakeService) -> None:
    response = shared.request("GET", "/users?page=99&per_page=10", token="alice-token")
    assert response.status == 200
    assert response.json() == []
    assert [response.header(h) for h in OFFSET_HEADERS if h != "Link"] == [
        "10", "99", "", "", "45", "5"
    ]  # fmt: skip
    assert response.header("Link") == (
        f'<{users_link(1, 10)}>; rel="first", <{users_link(5, 10)}>; rel="last"'
    )


def test_pagination_errors_join_parameter_errors(shared: FakeService) -> None:
    response = shared.request("GET", "/users?per_page=0&page=x&sort=up", token="root-token")
    assert response.status == 400
    assert response.json() == {
        "error": "sort does not have a valid value, page is invalid, per_page has a value not allowed"
    }


# -- more than 10,000 rows ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big() -> Iterator[FakeService]:
    """10,002 users: root, u1..u10000 created at the clock start, u10001 created earlier."""
    service = FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
                {"generate": 10000, "username": "u{n}", "name": "User {n}"},
                {
                    "generate": 1,
                    "start": 10001,
                    "username": "u{n}",
                    "name": "User {n}",
                    "created_at": "2025-06-01T00:00:00Z",
                },
            ]
        }
    )
    TRACKED.append(service)
    yield service
    TRACKED.remove(service)


def test_more_than_10000_rows_leave_totals_out(big: FakeService) -> None:
    response = big.request("GET", "/users", token="root-token")
    assert header_names(response) == ["Content-Type", *OFFSET_HEADERS[:5]]
    assert [rel for _, rel in parse_link(response.header("Link"))] == ["next", "first"]
    assert response.header("X-Next-Page") == "2"
    middle = big.request("GET", "/users?page=3", token="root-token")
    assert [rel for _, rel in parse_link(middle.header("Link"))] == ["prev", "next", "first"]
    assert [u["id"] for u in middle.json()] == list(range(10002 - 40, 10002 - 60, -1))


def test_the_last_page_of_a_large_collection(big: FakeService) -> None:
    response = big.request("GET", "/users?page=101&per_page=100", token="root-token")
    assert [u["username"] for u in response.json()] == ["u1", "root"]
    assert (response.header("X-Next-Page"), response.header("X-Prev-Page")) == ("", "100")
    assert [rel for _, rel in parse_link(response.header("Link"))] == ["prev", "first"]
    assert response.header("X-Total") is None


def test_a_filter_over_10000_rows_leaves_totals_out(big: FakeService) -> None:
    response = big.request("GET", "/users?search=user", token="root-token")
    assert response.header("X-Total") is None
    assert "last" not in link_map(response)


def test_exactly_10000_rows_are_counted(big: FakeService) -> None:
    response = big.request(
        "GET", "/users?search=user&created_after=2025-12-31T00:00:00Z", token="root-token"
    )
    assert (response.header("X-Total"), response.header("X-Total-Pages")) == ("10000", "500")
    assert link_query(link_map(response)["last"])["page"] == "500"


def test_large_collection_pages_are_served_in_id_order(big: FakeService) -> None:
    for page in (1, 250, 500):
        response = big.request("GET", f"/users?page={page}", token="root-token")
        ids = [user["id"] for user in response.json()]
        assert ids == sorted(ids, reverse=True) and len(ids) == 20


# -- maximum offset --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("page", "per_page"), [(2500, 20), (500, 100), (50000, 1)])
def test_offsets_up_to_50000_are_allowed(shared: FakeService, page: int, per_page: int) -> None:
    response = shared.request("GET", f"/projects?page={page}&per_page={per_page}")
    assert (response.status, response.json()) == (200, [])


@pytest.mark.parametrize(("page", "per_page"), [(2501, 20), (501, 100), (50001, 1)])
def test_offsets_past_50000_are_405_on_projects(
    shared: FakeService, page: int, per_page: int
) -> None:
    response = shared.request("GET", f"/projects?page={page}&per_page={per_page}")
    assert response.status == 405
    assert response.json() == {"error": MAX_OFFSET_ERROR}


def test_the_maximum_offset_applies_only_where_keyset_exists(shared: FakeService) -> None:
    response = shared.request("GET", "/users?page=2502&per_page=20", token="alice-token")
    assert (response.status, response.json()) == (200, [])


# -- keyset ------------------------------------------------------------------------------------------------------


def _keyset_walk(service: FakeService, query: str, token: str | None = None) -> list[list[int]]:
    pages = []
    response = service.request("GET", f"/projects?{query}", token=token)
    while True:
        assert response.status == 200
        ids = [p["id"] for p in response.json()]
        pages.append(ids)
        links = parse_link(response.header("Link"))
        if not links:
            return pages
        assert [rel for _, rel in links] == ["next"]
        response = follow(service, links[0][0], headers={"PRIVATE-TOKEN": token} if token else None)


def test_keyset_ascending(shared: FakeService) -> None:
    response = shared.request("GET", "/projects?pagination=keyset&order_by=id&sort=asc&per_page=8")
    assert header_names(response) == ["Content-Type", "Link"]
    assert [p["id"] for p in response.json()] == [1, 4, 5, 6, 7, 8, 9, 10]
    ((url, rel),) = parse_link(response.header("Link"))
    query = link_query(url)
    assert rel == "next"
    assert url.startswith(f"{BASE}/api/v4/projects?")
    assert (query["id_after"], query["per_page"], query["pagination"]) == ("10", "8", "keyset")
    assert "page" not in query and "id_before" not in query
    pages = _keyset_walk(shared, "pagination=keyset&order_by=id&sort=asc&per_page=8")
    assert [len(p) for p in pages] == [8, 8, 8, 8, 0]
    assert list(chain.from_iterable(pages)) == [1, *range(4, 35)]


def test_keyset_end_of_collection_is_empty_without_link(shared: FakeService) -> None:
    response = shared.request(
        "GET", "/projects?pagination=keyset&order_by=id&sort=asc&per_page=8&id_after=34"
    )
    assert response.json() == []
    assert header_names(response) == ["Content-Type"]


def test_keyset_descending_is_the_default_sort(shared: FakeService) -> None:
    response = shared.request("GET", "/projects?pagination=keyset&order_by=id&per_page=5")
    assert [p["id"] for p in response.json()] == [34, 33, 32, 31, 30]
    query = link_query(link_map(response)["next"])
    assert query["id_before"] == "30"
    assert "id_after" not in query
    pages = _keyset_walk(shared, "pagination=keyset&order_by=id&per_page=5")
    assert list(chain.from_iterable(pages)) == [*range(34, 3, -1), 1]
    assert [len(p) for p in pages] == [5, 5, 5, 5, 5, 5, 2]


def test_keyset_starting_from_a_given_id(shared: FakeService) -> None:
    after = shared.request("GET", "/projects?pagination=keyset&order_by=id&sort=asc&id_after=30")
    assert [p["id"] for p in after.json()] == [31, 32, 33, 34]
    assert after.header("Link") is None
    before = shared.request("GET", "/projects?pagination=keyset&order_by=id&id_before=6")
    assert [p["id"] for p in before.json()] == [5, 4, 1]


def test_keyset_sees_what_the_caller_may_see(shared: FakeService) -> None:
    pages = _keyset_walk(shared, "pagination=keyset&order_by=id&sort=asc&per_page=50", "root-token")
    assert pages[0] == list(range(1, 35))


@pytest.mark.parametrize(
    "path",
    [
        "/users?pagination=keyset",
        "/projects?pagination=keyset",
        "/projects?pagination=keyset&order_by=name",
        "/projects?pagination=keyset&order_by=created_at&sort=asc",
        "/users/alice/projects?pagination=keyset&order_by=id",
        "/personal_access_tokens?pagination=keyset",
    ],
)
def test_keyset_where_unsupported_is_405(shared: FakeService, path: str) -> None:
    response = shared.request("GET", path, token="alice-token")
    assert response.status == 405
    assert response.json() == KEYSET_UNAVAILABLE


def test_keyset_still_checks_per_page(shared: FakeService) -> None:
    response = shared.request("GET", "/projects?pagination=keyset&order_by=id&per_page=0")
    assert response.json() == {"error": "per_page has a value not allowed"}


# -- properties ------------------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    per_page=st.integers(1, 100),
    token=st.sampled_from(["alice-token", "root-token", "carol-token"]),
)
def test_following_next_visits_every_user_once(
    shared: FakeService, per_page: int, token: str | None
) -> None:
    everything = shared.request("GET", "/users?per_page=100", token=token).json()
    expected = [u["id"] for u in everything]
    total = len(expected)
    pages = max(1, math.ceil(total / per_page))
    seen: list[int] = []
    headers = {"PRIVATE-TOKEN": token} if token else None
    response = shared.request("GET", f"/users?per_page={per_page}", token=token)
    for number in range(1, pages + 1):
        items = [u["id"] for u in response.json()]
        assert items == expected[(number - 1) * per_page : number * per_page]
        assert response.header("X-Page") == str(number)
        assert response.header("X-Per-Page") == str(per_page)
        assert response.header("X-Total") == str(total)
        assert response.header("X-Total-Pages") == str(pages)
        assert response.header("X-Prev-Page") == (str(number - 1) if number > 1 else "")
        assert response.header("X-Next-Page") == (str(number + 1) if number < pages else "")
        links = link_map(response)
        assert ("prev" in links, "next" in links) == (number > 1, number < pages)
        assert link_query(links["last"])["page"] == str(pages)
        assert link_query(links["first"])["page"] == "1"
        seen.extend(items)
        if "next" not in links:
            break
        response = follow(shared, links["next"], headers=headers)
    assert seen == expected
    assert len(set(seen)) == total


@settings(max_examples=25, deadline=None)
@given(
    per_page=st.integers(1, 40),
    order_by=st.sampled_from(["id", "name", "path", "created_at", "last_activity_at"]),
    sort=st.sampled_from(["asc", "desc"]),
)
def test_offset_pages_of_projects_partition_the_list(
    shared: FakeService, per_page: int, order_by: str, sort: str
) -> None:
    query = f"order_by={order_by}&sort={sort}"
    expected = [p["id"] for p in shared.request("GET", f"/projects?{query}&per_page=100").json()]
    seen: list[int] = []
    response = shared.request("GET", f"/projects?{query}&per_page={per_page}")
    while True:
        seen.extend(p["id"] for p in response.json())
        links = link_map(response)
        if "next" not in links:
            break
        assert link_query(links["next"])["order_by"] == order_by
        response = follow(shared, links["next"])
    assert seen == expected
    assert sorted(seen) == [1, *range(4, 35)]


@settings(max_examples=25, deadline=None)
@given(per_page=st.integers(1, 40), sort=st.sampled_from(["asc", "desc"]))
def test_keyset_pages_visit_every_project_once(
    shared: FakeService, per_page: int, sort: str
) -> None:
    pages = _keyset_walk(shared, f"pagination=keyset&order_by=id&sort={sort}&per_page={per_page}")
    seen = list(chain.from_iterable(pages))
    expected = [1, *range(4, 35)]
    assert seen == (expected if sort == "asc" else expected[::-1])
    assert all(len(page) == per_page for page in pages[:-1])
    assert len(pages[-1]) < per_page or pages[-1] == []
