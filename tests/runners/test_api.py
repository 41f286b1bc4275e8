"""The runners API by id and by project and group: lists with their filters, details,
updates that round-trip, deletion, enabling and disabling on projects, and who may do
what."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import call

from fakeservice import FakeService

from .helpers import LIST_FIELDS, WEBSITE, group_token, ids, project_token, register

API = "/projects/acme%2Fplatform%2Fapi"


def runners(svc: FakeService) -> dict[str, int]:
    """Besides the built-in instance runner (1): a group runner of acme, a project runner
    of acme/website, and a paused, tagged instance runner."""
    return {
        "group": register(svc, group_token(svc), description="acme").json()["id"],
        "project": register(svc, project_token(svc), description="site").json()["id"],
        "tagged": register(svc, paused=True, tag_list=["docker"], description="dk").json()["id"],
    }


def test_lists_and_filters(svc: FakeService) -> None:
    made = runners(svc)
    everyone = call(svc, "GET", "/runners/all")
    assert ids(everyone) == [1, made["group"], made["project"], made["tagged"]]
    assert set(everyone.json()[0]) == LIST_FIELDS
    assert everyone.header("X-Total") == "4"
    cases: list[tuple[dict[str, Any], list[int]]] = [
        ({"type": "group_type"}, [made["group"]]),
        ({"type": "instance_type"}, [1, made["tagged"]]),
        ({"paused": "true"}, [made["tagged"]]),
        ({"status": "paused"}, [made["tagged"]]),
        ({"scope": "active"}, [1, made["group"], made["project"]]),
        ({"scope": "shared"}, [1, made["tagged"]]),
        ({"scope": "specific"}, [made["group"], made["project"]]),
        ({"tag_list": "docker"}, [made["tagged"]]),
        ({"version_prefix": "17."}, [1]),
        ({"status": "never_contacted"}, []),
    ]
    for query, wanted in cases:
        assert ids(call(svc, "GET", "/runners/all", query=query)) == wanted, query
    svc.clock.advance(hours=3)
    assert ids(call(svc, "GET", "/runners/all", query={"status": "online"})) == []
    assert len(ids(call(svc, "GET", "/runners/all", query={"status": "offline"}))) == 4
    svc.clock.advance(days=91)
    assert len(ids(call(svc, "GET", "/runners/all", query={"status": "stale"}))) == 4
    bad = call(svc, "GET", "/runners/all", query={"type": "shared"})
    assert (bad.status, bad.json()) == (400, {"error": "type does not have a valid value"})
    owned_scope = call(svc, "GET", "/runners", query={"scope": "shared"})
    assert owned_scope.json() == {"error": "scope does not have a valid value"}
    page = call(svc, "GET", "/runners/all", query={"per_page": 2, "page": 2})
    assert ids(page) == [made["project"], made["tagged"]]


def test_owned_runners_and_all_runners_permissions(svc: FakeService) -> None:
    made = runners(svc)
    assert ids(call(svc, "GET", "/runners", token="alice-token")) == [
        made["group"],
        made["project"],
    ]
    assert ids(call(svc, "GET", "/runners", token="bob-read-token")) == []
    assert ids(call(svc, "GET", "/runners")) == []  # administrators own none either
    assert call(svc, "GET", "/runners/all", token="alice-token").status == 403
    assert call(svc, "GET", "/runners", token=None).status == 401


def test_details_visibility(svc: FakeService) -> None:
    made = runners(svc)
    for who in ("bob-read-token", "carol-token"):
        assert call(svc, "GET", "/runners/1", token=who).status == 200
        denied = call(svc, "GET", f"/runners/{made['group']}", token=who)
        assert (denied.status, denied.json()) == (
            403,
            {"message": "403 Forbidden - No access granted"},
        )
    assert call(svc, "GET", f"/runners/{made['project']}", token="alice-token").status == 200
    missing = call(svc, "GET", "/runners/999")
    assert (missing.status, missing.json()) == (404, {"message": "404 Runner Not Found"})
    assert call(svc, "GET", "/runners/x").json() == {"error": "id is invalid"}


def test_update_round_trips_every_field(svc: FakeService) -> None:
    made = runners(svc)
    changes = {
        "description": "renamed",
        "paused": True,
        "tag_list": ["a", "b"],
        "run_untagged": False,
        "locked": True,
        "access_level": "ref_protected",
        "maximum_timeout": 7200,
        "maintenance_note": "moved",
    }
    updated = call(
        svc, "PUT", f"/runners/{made['project']}", token="alice-token", json_body=changes
    )
    assert updated.status == 200
    got = call(svc, "GET", f"/runners/{made['project']}").json()
    assert updated.json() == got
    assert {k: got[k] for k in changes} == changes
    assert got["active"] is False
    resumed = call(svc, "PUT", f"/runners/{made['project']}", json_body={"active": True}).json()
    assert (resumed["active"], resumed["paused"]) == (True, False)
    listed = call(svc, "GET", f"{WEBSITE}/runners").json()
    assert next(r for r in listed if r["id"] == made["project"])["description"] == "renamed"


def test_update_refusals_leave_the_runner_alone(svc: FakeService) -> None:
    made = runners(svc)
    before = call(svc, "GET", f"/runners/{made['project']}").json()
    refusals = [
        ({}, 400, {"error": "description, active, paused, tag_list, run_untagged, locked, "
                   "access_level, maximum_timeout, maintenance_note are missing, at least one "
                   "parameter must be provided"}),
        ({"active": True, "paused": True}, 400, {"error": "active, paused are mutually exclusive"}),
        ({"access_level": "all"}, 400, {"error": "access_level does not have a valid value"}),
        ({"maximum_timeout": "soon"}, 400, {"error": "maximum_timeout is invalid"}),
        ({"maximum_timeout": 10, "description": "x"}, 400,
         {"message": {"maximum_timeout": ["needs to be at least 10 minutes"]}}),
        ({"run_untagged": False}, 400, {"message": {"tags_list": [
            "can not be empty when runner is not allowed to pick untagged jobs"]}}),
    ]  # fmt: skip
    for body, status, answer in refusals:
        refused = call(svc, "PUT", f"/runners/{made['project']}", json_body=body)
        assert (refused.status, refused.json()) == (status, answer), body
    assert call(svc, "GET", f"/runners/{made['project']}").json() == before
    for who, runner in (("alice-token", 1), ("carol-token", made["group"])):
        denied = call(svc, "PUT", f"/runners/{runner}", token=who, json_body={"paused": True})
        assert denied.json() == {"message": "403 Forbidden - No access granted"}
    assert call(svc, "GET", "/runners/1").json()["paused"] is False


def test_delete(svc: FakeService) -> None:
    made = runners(svc)
    assert call(svc, "DELETE", "/runners/1", token="alice-token").status == 403
    assert call(svc, "DELETE", f"/runners/{made['group']}", token="alice-token").status == 204
    assert (
        call(svc, "POST", f"{API}/runners", json_body={"runner_id": made["project"]}).status == 201
    )
    shared = call(svc, "DELETE", f"/runners/{made['project']}", token="alice-token")
    assert shared.json() == {
        "message": "403 Forbidden - Runner associated with more than one project"
    }
    assert call(svc, "DELETE", f"/runners/{made['project']}").status == 204
    assert ids(call(svc, "GET", "/runners/all")) == [1, made["tagged"]]
    assert call(svc, "DELETE", "/runners/999").status == 404


def test_project_and_group_runners(svc: FakeService) -> None:
    made = runners(svc)
    assert ids(call(svc, "GET", f"{WEBSITE}/runners", token="alice-token")) == [
        1, made["group"], made["project"], made["tagged"],
    ]  # fmt: skip
    assert ids(call(svc, "GET", f"{API}/runners", query={"type": "project_type"})) == []
    assert ids(call(svc, "GET", f"{WEBSITE}/runners", query={"type": "project_type"})) == [
        made["project"]
    ]
    assert call(svc, "GET", f"{API}/runners", token="carol-token").status == 403
    assert call(
        svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault/runners", token="carol-token"
    ).json() == {"message": "404 Project Not Found"}
    assert ids(call(svc, "GET", "/groups/acme%2Fplatform/runners", token="alice-token")) == [
        1, made["group"], made["tagged"],
    ]  # fmt: skip
    assert ids(call(svc, "GET", "/groups/oss/runners", query={"paused": "false"})) == [1]
    assert call(svc, "GET", "/groups/acme/runners", token="bob-read-token").status == 403


def test_enable_and_disable_on_projects(svc: FakeService) -> None:
    made = runners(svc)
    enabled = call(
        svc, "POST", f"{API}/runners", token="alice-token", json_body={"runner_id": made["project"]}
    )
    assert enabled.status == 201 and enabled.json()["id"] == made["project"]
    assert set(enabled.json()) == LIST_FIELDS
    detail = call(svc, "GET", f"/runners/{made['project']}").json()
    assert [p["path_with_namespace"] for p in detail["projects"]] == [
        "acme/website",
        "acme/platform/api",
    ]
    again = call(svc, "POST", f"{API}/runners", json_body={"runner_id": made["project"]})
    assert (again.status, again.json()) == (
        409,
        {"message": "Runner was already enabled for this project"},
    )
    refusals = [
        (made["group"], "403 Forbidden - Runner is a group runner"),
        (1, "400 Bad request - Runner is an instance runner"),
    ]
    for runner, message in refusals:
        assert call(svc, "POST", f"{API}/runners", json_body={"runner_id": runner}).json() == {
            "message": message
        }
    assert call(svc, "POST", f"{API}/runners", json_body={"runner_id": 999}).status == 404
    owner = call(svc, "DELETE", f"{WEBSITE}/runners/{made['project']}")
    assert owner.json() == {
        "message": "403 Forbidden - You cannot unassign a runner from the owner project. "
        "Delete the runner instead"
    }
    assert (
        call(svc, "DELETE", f"{API}/runners/{made['project']}", token="alice-token").status == 204
    )
    gone = call(svc, "DELETE", f"{API}/runners/{made['project']}")
    assert gone.json() == {"message": "404 Runner Not Found"}


def test_locked_runners_are_enabled_by_administrators_only(svc: FakeService) -> None:
    made = runners(svc)
    call(svc, "PUT", f"/runners/{made['project']}", json_body={"locked": True})
    locked = call(
        svc, "POST", f"{API}/runners", token="alice-token", json_body={"runner_id": made["project"]}
    )
    assert locked.json() == {"message": "403 Forbidden - Runner is locked"}
    assert (
        call(svc, "POST", f"{API}/runners", json_body={"runner_id": made["project"]}).status == 201
    )


@pytest.mark.parametrize("path", ["/projects/acme%2Fwebsite", "/groups/acme"])
def test_a_deleted_owner_takes_its_runners(svc: FakeService, path: str) -> None:
    made = runners(svc)
    assert call(svc, "DELETE", path).status in (202, 204)
    left = ids(call(svc, "GET", "/runners/all"))
    assert made["tagged"] in left and 1 in left
    assert made["project"] not in left
    if path.startswith("/groups"):
        assert made["group"] not in left
