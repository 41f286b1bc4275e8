"""``/broadcast_messages``: public reads newest first with pagination, administrators'
writes with the service's defaults and validation (nothing stored on error), ``active``
from the service clock, conditional deletes, python-gitlab's ``gl.broadcastmessages``
and the ``broadcast_messages`` scenario key."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.admin import refused_to_non_admins
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.scenarios.loader import ScenarioError

PATH = "/broadcast_messages"


def create(svc: FakeService, **fields: Any) -> Any:
    return call(svc, "POST", PATH, json_body=fields)


def test_create_with_defaults_from_the_clock(svc: FakeService) -> None:
    made = create(svc, message="Maintenance tonight")
    assert made.status == 201
    assert body(made) == {
        "id": 1,
        "message": "Maintenance tonight",
        "starts_at": "2026-01-01T09:00:00Z",
        "ends_at": "2026-01-01T10:00:00Z",
        "color": "#E75E40",
        "font": "#FFFFFF",
        "target_access_levels": [],
        "target_path": None,
        "broadcast_type": "banner",
        "theme": "indigo",
        "dismissable": False,
        "active": True,
    }
    svc.clock.advance(seconds=3601)
    assert body(call(svc, "GET", f"{PATH}/1", None))["active"] is False


def test_every_field_round_trips_and_lists_newest_first(svc: FakeService) -> None:
    fields = {
        "message": "Upgrade",
        "starts_at": "2026-01-02T00:00:00Z",
        "ends_at": "2026-01-03T00:00:00Z",
        "color": "#123abc",
        "font": "#fff",
        "target_access_levels": [30, 40],
        "target_path": "*/welcome",
        "broadcast_type": "notification",
        "theme": "light-blue",
        "dismissable": True,
    }
    first = body(create(svc, message="older"))
    made = body(create(svc, **fields))
    assert {k: made[k] for k in fields} == fields and made["active"] is False
    listed = call(svc, "GET", PATH, None, query={"per_page": "1"})
    assert [m["id"] for m in body(listed)] == [made["id"]]
    assert listed.header("X-Total") == "2"
    edits = {"message": "Changed", "target_access_levels": "10,20", "theme": "dark"}
    edited = body(call(svc, "PUT", f"{PATH}/{first['id']}", json_body=edits))
    assert (edited["message"], edited["target_access_levels"], edited["theme"]) == (
        "Changed",
        [10, 20],
        "dark",
    )
    assert body(call(svc, "GET", f"{PATH}/{first['id']}", "bob-read-token")) == edited


@pytest.mark.parametrize(
    ("fields", "answer"),
    [
        ({}, {"error": "message is missing"}),
        (
            {"message": " ", "color": "red"},
            {"message": {"message": ["can't be blank"], "color": ["must be a valid color code"]}},
        ),
        ({"message": "m", "font": "#12"}, {"message": {"font": ["must be a valid color code"]}}),
        (
            {"message": "m", "target_access_levels": [11]},
            {"error": "target_access_levels does not have a valid value"},
        ),
        (
            {"message": "m", "broadcast_type": "popup"},
            {"error": "broadcast_type does not have a valid value"},
        ),
        ({"message": "m", "theme": "pink"}, {"error": "theme does not have a valid value"}),
        ({"message": "m", "starts_at": "soon"}, {"error": "starts_at is invalid"}),
        ({"message": "m", "dismissable": "maybe"}, {"error": "dismissable is invalid"}),
    ],
)
def test_refusals_store_nothing(svc: FakeService, fields: dict[str, Any], answer: Any) -> None:
    response = create(svc, **fields)
    assert (response.status, body(response)) == (400, answer)
    assert body(call(svc, "GET", PATH)) == []


def test_a_bad_edit_changes_nothing(svc: FakeService) -> None:
    made = body(create(svc, message="keep"))
    refused = call(svc, "PUT", f"{PATH}/1", json_body={"message": "", "theme": "blue"})
    assert body(refused) == {"message": {"message": ["can't be blank"]}}
    assert body(call(svc, "GET", f"{PATH}/1")) == made
    missing = call(svc, "PUT", f"{PATH}/99", json_body={"message": "x"})
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})


@refused_to_non_admins
def test_writes_are_for_administrators(
    svc: FakeService, token: str | None, status: int, answer: Any
) -> None:
    create(svc, message="m")
    for method, path in (("POST", PATH), ("PUT", f"{PATH}/1"), ("DELETE", f"{PATH}/1")):
        response = call(svc, method, path, token, json_body={"message": "x"})
        assert (response.status, body(response)) == (status, answer)
    assert body(call(svc, "GET", f"{PATH}/1", token))["message"] == "m"


def test_delete_is_conditional(svc: FakeService) -> None:
    create(svc, message="m")
    svc.clock.advance(seconds=60)
    call(svc, "PUT", f"{PATH}/1", json_body={"message": "later"})
    stale = call(
        svc, "DELETE", f"{PATH}/1", headers={"If-Unmodified-Since": "Thu, 01 Jan 2026 09:00:00 GMT"}
    )
    assert stale.status == 412
    assert call(svc, "DELETE", f"{PATH}/1").status == 204
    assert call(svc, "GET", f"{PATH}/1").status == 404


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(start=st.integers(-7200, 7200), length=st.integers(0, 7200), later=st.integers(0, 9000))
def test_active_is_within_the_span(svc: FakeService, start: int, length: int, later: int) -> None:
    """``active`` holds exactly while the clock is between ``starts_at`` and ``ends_at``."""
    import datetime as dt

    from fakeservice.core.clock import iso

    now = svc.clock.now()
    starts = now + dt.timedelta(seconds=start)
    ends = starts + dt.timedelta(seconds=length)
    made = body(create(svc, message="m", starts_at=iso(starts), ends_at=iso(ends)))
    svc.clock.advance(seconds=later)
    moment = svc.clock.now()
    shown = body(call(svc, "GET", f"{PATH}/{made['id']}"))["active"]
    assert shown == (starts <= moment <= ends)


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    made = gl.broadcastmessages.create({"message": "Hello", "target_access_levels": [10, 30]})
    assert (made.id, made.active, made.target_access_levels) == (1, True, [10, 30])
    made.message = "Bye"
    made.font = "#000000"
    made.save()
    again = gl.broadcastmessages.get(1)
    assert (again.message, again.font) == ("Bye", "#000000")
    assert [m.id for m in gl.broadcastmessages.list(get_all=True)] == [1]
    again.delete()
    assert gl.broadcastmessages.list(get_all=True) == []
    with pytest.raises(gitlab.GitlabCreateError, match="can't be blank"):
        gl.broadcastmessages.create({"message": None})


def test_scenario_key() -> None:
    svc = FakeService(
        {
            "broadcast_messages": [
                {"message": "Welcome", "broadcast_type": "notification"},
                {
                    "message": "Later",
                    "starts_at": "2026-02-01T00:00:00Z",
                    "ends_at": "2026-02-02T00:00:00Z",
                },
            ]
        }
    )
    shown = body(call(svc, "GET", PATH, None))
    assert [(m["message"], m["active"], m["broadcast_type"]) for m in shown] == [
        ("Later", False, "banner"),
        ("Welcome", True, "notification"),
    ]
    with pytest.raises(ScenarioError, match="must be a valid color code"):
        FakeService({"broadcast_messages": [{"message": "x", "color": "nope"}]})
