"""Feature flag user lists over raw HTTP: list (search), get by iid, create, update,
delete (refused while a strategy uses the list)."""

from __future__ import annotations

from support.calls import body, call_as

from fakeservice import FakeService

LISTS = "/projects/dan%2Fshop/feature_flags_user_lists"
NOW = "2026-03-01T12:00:00Z"


def test_user_list_crud(svc: FakeService) -> None:
    created = call_as(svc, "POST", LISTS, "dan", body={"name": "Staff", "user_xids": "s1,s2"})
    assert created.status == 201
    made = body(created)
    assert made == {
        "id": made["id"],
        "iid": 2,
        "project_id": made["project_id"],
        "created_at": NOW,
        "updated_at": NOW,
        "name": "Staff",
        "user_xids": "s1,s2",
        "path": "/dan/shop/-/feature_flags_user_lists/2",
        "edit_path": "/dan/shop/-/feature_flags_user_lists/2/edit",
    }
    assert [u["iid"] for u in body(call_as(svc, "GET", LISTS, "dan"))] == [1, 2]
    assert [u["name"] for u in body(call_as(svc, "GET", LISTS, "dan", search="STA"))] == ["Staff"]
    svc.clock.advance(seconds=5)
    updated = body(call_as(svc, "PUT", f"{LISTS}/2", "dan", body={"user_xids": "s3"}))
    assert (updated["name"], updated["user_xids"], updated["updated_at"]) == (
        "Staff",
        "s3",
        "2026-03-01T12:00:05Z",
    )
    assert body(call_as(svc, "GET", f"{LISTS}/2", "dan")) == updated
    gone = call_as(svc, "DELETE", f"{LISTS}/2", "dan")
    assert (gone.status, gone.body) == (204, b"")
    missing = call_as(svc, "GET", f"{LISTS}/2", "dan")
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})


def test_user_list_validation(svc: FakeService) -> None:
    taken = call_as(svc, "POST", LISTS, "dan", body={"name": "beta testers", "user_xids": " a"})
    assert (taken.status, body(taken)) == (
        400,
        {
            "message": [
                "Name has already been taken",
                "User xids user_xids must be a string of unique comma separated values each "
                "256 characters or less",
            ]
        },
    )
    missing = call_as(svc, "POST", LISTS, "dan", body={"name": "x"})
    assert body(missing) == {"error": "user_xids is missing"}
    rename = call_as(svc, "PUT", f"{LISTS}/1", "dan", body={"user_xids": "a,,b"})
    assert rename.status == 400
    assert body(call_as(svc, "GET", f"{LISTS}/1", "dan"))["user_xids"] == "u1,u2"


def test_a_list_in_use_is_not_deleted(svc: FakeService) -> None:
    refused = call_as(svc, "DELETE", f"{LISTS}/1", "dan")
    assert (refused.status, body(refused)) == (
        409,
        {"message": ["User list is associated with a strategy"]},
    )
    flag = body(call_as(svc, "GET", "/projects/dan%2Fshop/feature_flags/new_checkout", "dan"))
    used = flag["strategies"][1]["id"]
    edit = {"strategies": [{"id": used, "_destroy": True}]}
    assert (
        call_as(
            svc, "PUT", "/projects/dan%2Fshop/feature_flags/new_checkout", "dan", body=edit
        ).status
        == 200
    )
    assert call_as(svc, "DELETE", f"{LISTS}/1", "dan").status == 204


def test_user_list_roles(svc: FakeService) -> None:
    assert call_as(svc, "GET", LISTS, "rita").status == 403
    assert call_as(svc, "POST", LISTS, "rita", body={"name": "x", "user_xids": "a"}).status == 403
