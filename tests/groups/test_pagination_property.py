"""Property: walking the pages of ``GET /groups`` shows every group the caller may see
exactly once, in order, whatever ``per_page`` (1..100), and the headers agree.

Hypothesis draws a whole forest of groups (visibilities never above the parent's, names
often repeated) and one user's memberships; the expected list is computed here from the
documented rules, independently of the service.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService

from .helpers import get, links, query_of

LEVELS = ("private", "internal", "public")
NAMES = ("Apple", "apple", "Banana", "cherry", "Cherry pie", "date", "Élan", "fig")
CALLERS = ("anonymous", "root", "member", "member-all", "outsider-all")


@st.composite
def forests(draw: Any) -> dict[str, Any]:
    count = draw(st.integers(min_value=1, max_value=24))
    groups: list[dict[str, Any]] = []
    for index in range(count):
        parent = draw(st.none() | st.integers(0, index - 1)) if index else None
        ceiling = LEVELS.index(groups[parent]["visibility"]) if parent is not None else 2
        groups.append(
            {
                "index": index,
                "parent": parent,
                "path": f"g{index}" if parent is None else f"{groups[parent]['path']}/g{index}",
                "name": draw(st.sampled_from(NAMES)),
                "visibility": LEVELS[draw(st.integers(0, ceiling))],
            }
        )
    member_of = draw(st.sets(st.integers(0, count - 1), max_size=3))
    return {"groups": groups, "member_of": sorted(member_of)}


def scenario(forest: dict[str, Any]) -> dict[str, Any]:
    def tokens(name: str) -> list[dict[str, str]]:
        return [{"name": "t", "token": f"{name}-token"}]

    groups = []
    for group in forest["groups"]:
        spec = {k: group[k] for k in ("path", "name", "visibility")}
        if group["index"] in forest["member_of"]:
            spec["members"] = [{"user": "member", "role": "developer"}]
        groups.append(spec)
    return {
        "users": [
            {"username": "root", "admin": True, "tokens": tokens("root")},
            {"username": "member", "tokens": tokens("member")},
            {"username": "outsider", "tokens": tokens("outsider")},
        ],
        "groups": groups,
    }


def expected_paths(forest: dict[str, Any], caller: str, order_by: str, sort: str) -> list[str]:
    groups = forest["groups"]

    def lineage(index: int) -> set[int]:
        up, node = set(), index
        while node is not None:
            up.add(node)
            node = groups[node]["parent"]
        return up

    members: set[int] = set()
    for root in forest["member_of"]:
        members |= lineage(root)
        members |= {g["index"] for g in groups if root in lineage(g["index"])}
    open_levels = {"anonymous": {"public"}, "root": set(LEVELS)}.get(caller, {"public", "internal"})
    if caller == "member":
        open_levels = set()
    visible = [
        g
        for g in groups
        if g["visibility"] in open_levels or (caller.startswith("member") and g["index"] in members)
    ]
    key = {
        "name": lambda g: (g["name"].lower(), g["index"]),
        "path": lambda g: (g["path"].rsplit("/", 1)[-1], g["index"]),
        "id": lambda g: (g["index"],),
    }[order_by]
    return [g["path"] for g in sorted(visible, key=key, reverse=sort == "desc")]


def walk(svc: FakeService, caller: str, per_page: int, order_by: str, sort: str) -> list[str]:
    """Follow ``X-Next-Page`` from page 1, checking every page's headers; return all paths."""
    who = {"anonymous": None, "member-all": "member", "outsider-all": "outsider"}.get(
        caller, caller
    )
    query: dict[str, Any] = {"per_page": per_page, "order_by": order_by, "sort": sort}
    if caller.endswith("-all"):
        query["all_available"] = "true"
    seen: list[str] = []
    page = 1
    while True:
        response = get(svc, "/groups", who, page=page, **query)
        assert response.status == 200
        items = [g["full_path"] for g in response.json()]
        assert len(items) <= per_page
        seen.extend(items)
        check_headers(response, page, per_page)
        nxt = response.header("X-Next-Page")
        if not nxt:
            return seen
        assert len(items) == per_page
        page = int(nxt)


def check_headers(response: Any, page: int, per_page: int) -> None:
    total = int(response.header("X-Total"))
    pages = int(response.header("X-Total-Pages"))
    assert pages == max(1, math.ceil(total / per_page))
    assert response.header("X-Page") == str(page)
    assert response.header("X-Per-Page") == str(per_page)
    assert response.header("X-Next-Page") == (str(page + 1) if page < pages else "")
    assert response.header("X-Prev-Page") == (str(page - 1) if page > 1 else "")
    rels = links(response)
    assert query_of(rels["first"])["page"] == "1"
    assert query_of(rels["last"])["page"] == str(pages)
    assert ("next" in rels) == (page < pages)
    if "next" in rels:
        assert query_of(rels["next"])["page"] == str(page + 1)
        assert query_of(rels["next"])["per_page"] == str(per_page)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    forest=forests(),
    caller=st.sampled_from(CALLERS),
    per_page=st.integers(min_value=1, max_value=100),
    order_by=st.sampled_from(("name", "path", "id")),
    sort=st.sampled_from(("asc", "desc")),
)
def test_every_visible_group_appears_exactly_once(
    forest: dict[str, Any], caller: str, per_page: int, order_by: str, sort: str
) -> None:
    svc = FakeService(scenario(forest))
    seen = walk(svc, caller, per_page, order_by, sort)
    expected = expected_paths(forest, caller, order_by, sort)
    assert len(seen) == len(set(seen))
    assert seen == expected
    assert not svc.server_errors


@settings(max_examples=25, deadline=None)
@given(forest=forests(), per_page=st.integers(min_value=1, max_value=100))
def test_keyset_walk_matches_offset_listing(forest: dict[str, Any], per_page: int) -> None:
    svc = FakeService(scenario(forest))
    seen: list[str] = []
    response = get(svc, "/groups", None, pagination="keyset", per_page=per_page)
    while True:
        assert response.status == 200
        seen.extend(g["full_path"] for g in response.json())
        nxt = links(response).get("next")
        if nxt is None:
            break
        response = svc.request("GET", nxt.removeprefix("http://fakeservice.test"))
    assert seen == expected_paths(forest, "anonymous", "name", "asc")
    assert not svc.server_errors
