"""Epic issues over raw HTTP: list, assign (moving from another epic), remove and reorder;
the issue's ``epic`` / ``epic_iid`` fields; permissions, the plan gate, bad input, and
the state after each call."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import ALICE, BOB, EPICS, create

WEBSITE = "/projects/acme%2Fwebsite/issues"


def new_issue(
    svc: FakeService, project: str = "acme%2Fwebsite", token: str = ALICE
) -> dict[str, Any]:
    response = call(svc, "POST", f"/projects/{project}/issues", token, json_body={"title": "Issue"})
    assert response.status == 201, response.body
    return body(response)


def assign(svc: FakeService, epic_iid: int, issue_id: int, token: str = ALICE) -> tuple[int, Any]:
    response = call(svc, "POST", f"{EPICS}/{epic_iid}/issues/{issue_id}", token)
    return response.status, body(response)


def order(svc: FakeService, epic_iid: int = 1, token: str = ALICE) -> list[tuple[int, int]]:
    """The epic's issues as (issue id, association id), in the listed order."""
    response = call(svc, "GET", f"{EPICS}/{epic_iid}/issues", token)
    assert response.status == 200, response.body
    return [(item["id"], item["epic_issue_id"]) for item in body(response)]


@pytest.fixture
def three(svc: FakeService) -> list[dict[str, Any]]:
    """Epic 1 holding three issues, assigned in order (so listed last-assigned first)."""
    create(svc, title="Launch")
    issues = [new_issue(svc) for _ in range(3)]
    for issue in issues:
        assert assign(svc, 1, issue["id"])[0] == 201
    return issues


def test_assign_answers_the_association(svc: FakeService) -> None:
    epic = create(svc, title="Launch", due_date_is_fixed=True, due_date_fixed="2026-01-11")
    issue = new_issue(svc)
    status, link = assign(svc, 1, issue["id"])
    assert status == 201
    assert (link["id"], link["relative_position"]) == (1, 0)
    assert link["epic"]["id"] == epic["id"]
    assert link["epic"]["title"] == "Launch"
    assert link["issue"]["id"] == issue["id"]
    expected_epic = {
        "id": epic["id"],
        "iid": 1,
        "title": "Launch",
        "url": "/groups/acme/-/epics/1",
        "group_id": epic["group_id"],
        "human_readable_end_date": "Jan 11, 2026",
        "human_readable_timestamp": "<strong>10</strong> days remaining",
    }
    assert link["issue"]["epic"] == expected_epic
    assert link["issue"]["epic_iid"] == 1
    shown = body(call(svc, "GET", f"{WEBSITE}/{issue['iid']}", ALICE))
    assert (shown["epic_iid"], shown["epic"]) == (1, expected_epic)
    listed = body(call(svc, "GET", WEBSITE, ALICE))
    assert listed[0]["epic"] == expected_epic


def test_issue_without_epic_shows_nulls(svc: FakeService) -> None:
    issue = new_issue(svc)
    shown = body(call(svc, "GET", f"{WEBSITE}/{issue['iid']}", ALICE))
    assert (shown["epic_iid"], shown["epic"]) == (None, None)


def test_list_shows_issues_in_order_with_their_association(
    svc: FakeService, three: list[dict[str, Any]]
) -> None:
    response = call(svc, "GET", f"{EPICS}/1/issues", ALICE)
    assert response.status == 200
    items = body(response)
    assert [(i["id"], i["epic_issue_id"]) for i in items] == [
        (three[2]["id"], 3),
        (three[1]["id"], 2),
        (three[0]["id"], 1),
    ]
    assert [i["relative_position"] for i in items] == [-2147482, -1073741, 0]
    assert all(i["epic_iid"] == 1 for i in items)
    assert response.header("X-Total") == "3"
    page = call(svc, "GET", f"{EPICS}/1/issues?per_page=2&page=2", ALICE)
    assert [i["epic_issue_id"] for i in body(page)] == [1]


def test_assigning_an_issue_of_another_epic_moves_it(
    svc: FakeService, three: list[dict[str, Any]]
) -> None:
    create(svc, title="Other")
    status, link = assign(svc, 2, three[0]["id"])
    assert status == 201
    assert link["id"] == 1  # the association keeps its id
    assert link["epic"]["iid"] == 2
    assert order(svc, 2) == [(three[0]["id"], 1)]
    assert [link_id for _, link_id in order(svc, 1)] == [3, 2]
    shown = body(call(svc, "GET", f"{WEBSITE}/{three[0]['iid']}", ALICE))
    assert shown["epic_iid"] == 2


def test_assigning_twice_is_409(svc: FakeService, three: list[dict[str, Any]]) -> None:
    assert assign(svc, 1, three[0]["id"]) == (409, {"message": "Issue(s) already assigned"})
    assert len(order(svc)) == 3


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        ({"move_before_id": 1}, [2, 1, 3]),  # association 1 ends up before 3
        ({"move_after_id": 2}, [3, 2, 1]),  # unchanged: 3 already before 2
        ({"move_before_id": 2, "move_after_id": 1}, [2, 3, 1]),
    ],
)
def test_reorder_moves_the_association(
    svc: FakeService, three: list[dict[str, Any]], move: dict[str, int], expected: list[int]
) -> None:
    response = call(svc, "PUT", f"{EPICS}/1/issues/3", ALICE, json_body=move)
    assert response.status == 200, response.body
    assert [i["epic_issue_id"] for i in body(response)] == expected
    assert [link_id for _, link_id in order(svc)] == expected


def test_reorder_to_the_front_and_back(svc: FakeService, three: list[dict[str, Any]]) -> None:
    call(svc, "PUT", f"{EPICS}/1/issues/1", ALICE, json_body={"move_after_id": 3})
    assert [link_id for _, link_id in order(svc)] == [1, 3, 2]
    call(svc, "PUT", f"{EPICS}/1/issues/1", ALICE, json_body={"move_before_id": 2})
    assert [link_id for _, link_id in order(svc)] == [3, 2, 1]


def test_many_moves_between_neighbours_keep_a_consistent_order(
    svc: FakeService, three: list[dict[str, Any]]
) -> None:
    # keep squeezing association 1 between 3 and 2, then 2 between 3 and 1: the gap
    # halves each time until the epic is spread out again
    for _ in range(25):
        call(svc, "PUT", f"{EPICS}/1/issues/1", ALICE,
             json_body={"move_before_id": 3, "move_after_id": 2})  # fmt: skip
        call(svc, "PUT", f"{EPICS}/1/issues/2", ALICE,
             json_body={"move_before_id": 3, "move_after_id": 1})  # fmt: skip
    assert [link_id for _, link_id in order(svc)] == [3, 2, 1]
    items = body(call(svc, "GET", f"{EPICS}/1/issues", ALICE))
    positions = [i["relative_position"] for i in items]
    assert positions == sorted(set(positions))


@pytest.mark.parametrize(
    ("payload", "status", "answer"),
    [
        (
            {},
            400,
            {"error": "move_before_id, move_after_id are missing, "
             "at least one parameter must be provided"},
        ),
        ({"move_before_id": "x"}, 400, {"error": "move_before_id is invalid"}),
        ({"move_before_id": 999}, 400, {"message": {"error": "Issue could not be moved!"}}),
        ({"move_before_id": 3}, 400, {"message": {"error": "Issue could not be moved!"}}),
    ],
)  # fmt: skip
def test_bad_reorders_are_400_and_change_nothing(
    svc: FakeService,
    three: list[dict[str, Any]],
    payload: dict[str, Any],
    status: int,
    answer: dict[str, Any],
) -> None:
    before = order(svc)
    response = call(svc, "PUT", f"{EPICS}/1/issues/3", ALICE, json_body=payload)
    assert (response.status, body(response)) == (status, answer)
    assert order(svc) == before


def test_remove_answers_the_removed_association(
    svc: FakeService, three: list[dict[str, Any]]
) -> None:
    response = call(svc, "DELETE", f"{EPICS}/1/issues/2", ALICE)
    assert response.status == 200
    removed = body(response)
    assert (removed["id"], removed["issue"]["id"]) == (2, three[1]["id"])
    assert [link_id for _, link_id in order(svc)] == [3, 1]
    shown = body(call(svc, "GET", f"{WEBSITE}/{three[1]['iid']}", ALICE))
    assert (shown["epic_iid"], shown["epic"]) == (None, None)
    again = call(svc, "DELETE", f"{EPICS}/1/issues/2", ALICE)
    assert (again.status, body(again)) == (404, {"message": "404 Not found"})


def test_an_association_of_another_epic_is_403(
    svc: FakeService, three: list[dict[str, Any]]
) -> None:
    create(svc, title="Other")
    assert call(svc, "DELETE", f"{EPICS}/2/issues/1", ALICE).status == 403
    moved = call(svc, "PUT", f"{EPICS}/2/issues/1", ALICE, json_body={"move_before_id": 2})
    assert (moved.status, body(moved)) == (403, {"message": "403 Forbidden"})
    assert len(order(svc)) == 3


def test_deleting_the_issue_or_the_epic_drops_the_association(
    svc: FakeService, three: list[dict[str, Any]]
) -> None:
    assert call(svc, "DELETE", f"{WEBSITE}/{three[0]['iid']}", ALICE).status == 204
    assert [link_id for _, link_id in order(svc)] == [3, 2]
    assert call(svc, "DELETE", f"{EPICS}/1", ALICE).status == 204
    shown = body(call(svc, "GET", f"{WEBSITE}/{three[1]['iid']}", ALICE))
    assert shown["epic"] is None
    create(svc, title="Again")
    assert assign(svc, 2, three[1]["id"])[0] == 201


def test_unknown_ids_are_404(svc: FakeService) -> None:
    create(svc)
    assert assign(svc, 1, 9999) == (404, {"message": "404 Not found"})
    assert assign(svc, 99, new_issue(svc)["id"]) == (404, {"message": "404 Not found"})
    assert call(svc, "GET", f"{EPICS}/99/issues", ALICE).status == 404
    assert call(svc, "GET", "/groups/nope/epics/1/issues", ALICE).status == 404
    bad = call(svc, "POST", f"{EPICS}/1/issues/abc", ALICE)
    assert (bad.status, body(bad)) == (400, {"error": "issue_id is invalid"})
    assert order(svc) == []


NO_MATCH = {"message": "No matching issue found. Make sure that you are adding a valid issue URL."}


def test_issues_outside_the_group_or_out_of_reach_do_not_match(svc: FakeService) -> None:
    create(svc)
    personal = new_issue(svc, "alice%2Fdotfiles")
    assert assign(svc, 1, personal["id"]) == (404, NO_MATCH)
    foreign = new_issue(svc, "oss%2Flib-01", ROOT)
    assert assign(svc, 1, foreign["id"]) == (404, NO_MATCH)
    assert order(svc) == []


def test_changes_need_the_planner_role(svc: FakeService, three: list[dict[str, Any]]) -> None:
    assert call(svc, "GET", f"{EPICS}/1/issues", BOB).status == 200  # a Reporter reads
    assert assign(svc, 1, new_issue(svc)["id"], BOB)[0] == 201  # Reporter >= Planner
    carol = call(svc, "POST", f"{EPICS}/1/issues/{three[0]['id']}", "carol-token")
    assert (carol.status, body(carol)) == (403, {"message": "403 Forbidden"})
    assert call(svc, "DELETE", f"{EPICS}/1/issues/1", "carol-token").status == 403
    assert len(order(svc)) == 4
    assert call(svc, "GET", f"{EPICS}/1/issues", None).status == 401


def test_plan_without_epics_answers_403() -> None:
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
            "groups": [{"path": "g", "epics": [{"title": "kept"}]}],
            "projects": [{"path": "g/p", "issues": [{"title": "i"}]}],
            "instance": {"plan": "free"},
        }
    )
    for method, path in (
        ("GET", "/groups/g/epics/1/issues"),
        ("POST", "/groups/g/epics/1/issues/1"),
        ("PUT", "/groups/g/epics/1/issues/1?move_before_id=2"),
        ("DELETE", "/groups/g/epics/1/issues/1"),
    ):
        response = call(svc, method, path)
        assert (response.status, body(response)) == (403, {"message": "403 Forbidden"}), path
    shown = body(call(svc, "GET", "/projects/g%2Fp/issues/1"))
    assert "epic" not in shown and "epic_iid" not in shown


def scenario(epic_issues: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
        "groups": [
            {"path": "g", "epics": [{"title": "One"}, {"title": "Two"}]},
            {"path": "h", "epics": [{"title": "Elsewhere"}]},
        ],
        "projects": [
            {
                "path": "g/p",
                "issues": [{"title": "a"}, {"title": "b"}, {"title": "c"}],
                "epic_issues": epic_issues,
            }
        ],
    }


def test_scenario_epic_issues_are_loaded_in_order() -> None:
    svc = FakeService(
        scenario(
            [
                {"issue": 3, "epic": "g&1"},
                {"issue": 1, "epic": "g&1"},
                {"issue": 2, "epic": "g&2"},
            ]
        )
    )
    one = body(call(svc, "GET", "/groups/g/epics/1/issues"))
    assert [item["iid"] for item in one] == [1, 3]
    two = body(call(svc, "GET", "/groups/g/epics/2/issues"))
    assert [(item["iid"], item["epic_iid"]) for item in two] == [(2, 2)]


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        ({"issue": 9, "epic": "g&1"}, "projects[0].epic_issues[0].issue"),
        ({"issue": 1, "epic": "g&9"}, "projects[0].epic_issues[0].epic"),
        ({"issue": 1, "epic": "h&1"}, "projects[0].epic_issues[0].epic"),
        ({"issue": 1}, "projects[0].epic_issues[0]"),
    ],
)
def test_scenario_epic_issue_errors_name_the_entry(entry: dict[str, Any], where: str) -> None:
    from fakeservice.scenarios.problems import ScenarioError

    with pytest.raises(ScenarioError) as failed:
        FakeService(scenario([entry]))
    assert where in str(failed.value)
