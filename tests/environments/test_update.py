"""``PUT /projects/:id/protected_environments/:name`` (issue 12): add, change and remove
deploy access levels and approval rules, change the approval count; validated before
anything is stored; through raw HTTP and python-gitlab's HTTP layer."""

from __future__ import annotations

from typing import Any

import gitlab

from fakeservice import FakeService

from .conftest import ALICE, DORA, LEGACY

PATH = f"/projects/{LEGACY}/protected_environments/production"


def put(svc: FakeService, body: dict[str, Any], token: str = ALICE) -> Any:
    return svc.request("PUT", PATH, json_body=body, token=token)


def current(svc: FakeService) -> dict[str, Any]:
    return svc.request("GET", PATH, token=ALICE).json()


def test_add_change_and_remove_entries(svc: FakeService) -> None:
    before = current(svc)
    levels = before["deploy_access_levels"]
    role = next(e for e in levels if e["user_id"] is None and e["group_id"] is None)
    group_entry = next(e for e in levels if e["group_id"] is not None)
    rule = before["approval_rules"][0]
    response = put(
        svc,
        {
            "deploy_access_levels": [
                {"id": role["id"], "access_level": 30},
                {"id": group_entry["id"], "_destroy": True},
                {"access_level": 60},
            ],
            "approval_rules": [{"id": rule["id"], "required_approvals": 1}],
            "required_approval_count": 1,
        },
    )
    assert response.status == 200, response.body
    body = response.json()
    assert body == current(svc)
    levels_after = body["deploy_access_levels"]
    assert [
        e["access_level"] for e in levels_after if e["user_id"] is None and e["group_id"] is None
    ] == [30, 60]
    assert all(e["group_id"] is None for e in levels_after)
    assert body["approval_rules"][0]["required_approvals"] == 1
    assert body["required_approval_count"] == 1


def test_removing_every_deploy_level_is_422_and_changes_nothing(svc: FakeService) -> None:
    before = current(svc)
    drop_all = [{"id": e["id"], "_destroy": True} for e in before["deploy_access_levels"]]
    response = put(svc, {"deploy_access_levels": drop_all})
    assert (response.status, response.json()) == (
        422,
        {"message": ["Deploy access levels is too short (minimum is 1 character)"]},
    )
    assert current(svc) == before


def test_bad_counts_and_roles(svc: FakeService) -> None:
    before = current(svc)
    assert put(svc, {"required_approval_count": 9}).status == 422
    assert put(svc, {"deploy_access_levels": [{"access_level": 7}]}).json() == {
        "error": "deploy_access_levels[0][access_level] does not have a valid value"
    }
    assert put(svc, {"required_approval_count": 1}, token=DORA).status in (403, 404)
    missing = svc.request(
        "PUT", f"/projects/{LEGACY}/protected_environments/nope", json_body={}, token=ALICE
    )
    assert missing.status == 404
    assert current(svc) == before


def test_python_gitlab_http_put(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ALICE, session=svc.requests_session())
    answer = gl.http_put(
        f"/projects/{LEGACY}/protected_environments/production",
        post_data={"required_approval_count": 0},
    )
    assert answer["required_approval_count"] == 0
    fetched = gl.projects.get("acme/legacy").protected_environments.get("production")
    assert fetched.required_approval_count == 0
