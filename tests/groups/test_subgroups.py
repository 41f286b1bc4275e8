"""``GET /groups/:id/subgroups`` and ``GET /groups/:id/descendant_groups``."""

from __future__ import annotations

import pytest

from fakeservice import FakeService

from .helpers import full_paths, get, group_id


@pytest.mark.parametrize(
    ("who", "query", "expected"),
    [
        ("root", {}, ["alpha/beta", "alpha/delta"]),
        ("root", {"all_available": "false"}, []),
        ("olga", {}, ["alpha/beta", "alpha/delta"]),
        ("mia", {}, ["alpha/beta"]),
        ("otto", {}, []),
        ("otto", {"all_available": "true"}, ["alpha/beta"]),
        ("eve", {"all_available": "true"}, []),
        (None, {}, []),
        ("root", {"order_by": "name", "sort": "desc"}, ["alpha/delta", "alpha/beta"]),
        ("root", {"search": "beta"}, ["alpha/beta"]),
        ("root", {"search": "alpha"}, []),  # short paths and names only
        ("root", {"search": "DEL"}, ["alpha/delta"]),
        ("root", {"visibility": "private"}, ["alpha/delta"]),
        ("root", {"skip_groups[]": "{beta}"}, ["alpha/delta"]),
        ("root", {"top_level_only": "true"}, ["alpha/beta", "alpha/delta"]),  # not a parameter here
        ("olga", {"owned": "true"}, []),
        ("olga", {"min_access_level": 50}, ["alpha/beta", "alpha/delta"]),
    ],
)
def test_subgroups(svc: FakeService, who: str | None, query: dict, expected: list) -> None:
    query = {
        k: v.format(beta=group_id(svc, "alpha/beta")) if isinstance(v, str) else v
        for k, v in query.items()
    }
    assert full_paths(get(svc, "/groups/alpha/subgroups", who, **query)) == expected


@pytest.mark.parametrize(
    ("who", "query", "expected"),
    [
        ("root", {}, ["alpha/beta", "alpha/delta", "alpha/beta/gamma"]),
        ("root", {"order_by": "id"}, ["alpha/beta", "alpha/beta/gamma", "alpha/delta"]),
        (
            "root",
            {"order_by": "path", "sort": "desc"},
            ["alpha/beta/gamma", "alpha/delta", "alpha/beta"],
        ),
        ("olga", {}, ["alpha/beta", "alpha/delta", "alpha/beta/gamma"]),
        ("mia", {}, ["alpha/beta", "alpha/beta/gamma"]),
        ("dan", {"search": "gamma"}, ["alpha/beta/gamma"]),
        ("otto", {"all_available": "true"}, ["alpha/beta"]),
        (None, {}, []),
        ("mia", {"min_access_level": 40}, ["alpha/beta", "alpha/beta/gamma"]),
    ],
)
def test_descendant_groups(svc: FakeService, who: str | None, query: dict, expected: list) -> None:
    assert full_paths(get(svc, "/groups/alpha/descendant_groups", who, **query)) == expected


def test_nested_parent_by_encoded_path_or_id(svc: FakeService) -> None:
    assert full_paths(get(svc, "/groups/alpha%2Fbeta/subgroups", "mia")) == ["alpha/beta/gamma"]
    beta = group_id(svc, "alpha/beta")
    assert full_paths(get(svc, f"/groups/{beta}/descendant_groups", "mia")) == ["alpha/beta/gamma"]


def test_statistics_and_custom_attributes_for_administrators(svc: FakeService) -> None:
    listed = get(
        svc, "/groups/alpha/subgroups", "root", statistics="true", with_custom_attributes="true"
    ).json()
    assert all("statistics" in g and g["custom_attributes"] == [] for g in listed)
    listed = get(
        svc, "/groups/alpha/subgroups", "olga", statistics="true", with_custom_attributes="true"
    ).json()
    assert all("statistics" not in g and "custom_attributes" not in g for g in listed)


@pytest.mark.parametrize("endpoint", ["subgroups", "descendant_groups"])
@pytest.mark.parametrize(
    ("path", "who"),
    [
        ("zeta", "otto"),
        ("zeta", None),
        ("alpha%2Fbeta", None),
        ("alpha%2Fbeta", "eve"),
        ("nope", "root"),
        ("99999", "root"),
    ],
)
def test_invisible_or_unknown_parent_is_404(
    svc: FakeService, endpoint: str, path: str, who: str | None
) -> None:
    response = get(svc, f"/groups/{path}/{endpoint}", who)
    assert (response.status, response.json()) == (404, {"message": "404 Group Not Found"})


@pytest.mark.parametrize("endpoint", ["subgroups", "descendant_groups"])
@pytest.mark.parametrize(
    ("query", "error"),
    [
        ({"order_by": "similarity", "search": "beta"}, "order_by does not have a valid value"),
        ({"sort": "sideways"}, "sort does not have a valid value"),
        ({"min_access_level": 1}, "min_access_level does not have a valid value"),
        ({"all_available": "yes please"}, "all_available is invalid"),
    ],
)
def test_parameter_errors(svc: FakeService, endpoint: str, query: dict, error: str) -> None:
    response = get(svc, f"/groups/alpha/{endpoint}", "olga", **query)
    assert (response.status, response.json()) == (400, {"error": error})


def test_keyset_is_not_offered(svc: FakeService) -> None:
    response = get(svc, "/groups/alpha/subgroups", None, pagination="keyset")
    assert (response.status, response.json()) == (
        405,
        {"error": "Keyset pagination is not yet available for this type of request"},
    )


def test_pagination_headers(svc: FakeService) -> None:
    response = get(svc, "/groups/alpha/descendant_groups", "root", per_page=2)
    assert full_paths(response) == ["alpha/beta", "alpha/delta"]
    assert (
        response.header("X-Total"),
        response.header("X-Total-Pages"),
        response.header("X-Next-Page"),
    ) == (
        "3",
        "2",
        "2",
    )
