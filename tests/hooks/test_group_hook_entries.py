"""A group hook's own routes: custom headers and URL variables set one key at a time,
used by the next delivery for a push to a project of the group; the group hook's events
list; the group hook test endpoint."""

from __future__ import annotations

from typing import Any

import respx
from support.calls import body, call

from fakeservice import FakeService

from .test_deliveries import add_hook, commit, sent

GROUP = "/groups/acme"
TEMPLATE_URL = "http://hooks.example/{area}"


def test_entries_events_and_test_of_a_group_hook(svc: FakeService) -> None:
    hook = add_hook(
        svc, url=TEMPLATE_URL, where=GROUP, url_variables=[{"key": "area", "value": "x"}]
    )
    one = f"{GROUP}/hooks/{hook['id']}"
    header = call(svc, "PUT", f"{one}/custom_headers/X-Team", json_body={"value": "web"})
    assert (header.status, header.body) == (204, b"")
    variable = call(svc, "PUT", f"{one}/url_variables/area", json_body={"value": "receive"})
    assert (variable.status, variable.body) == (204, b"")
    shown = body(call(svc, "GET", one))
    assert shown["custom_headers"] == [{"key": "X-Team"}]
    assert shown["url_variables"] == [{"key": "area"}]
    with respx.mock() as mock:
        route = mock.post("http://hooks.example/receive").respond(200, json={"ok": True})
        commit(svc)
        tested = call(svc, "POST", f"{one}/test/push_events")
    assert (tested.status, body(tested)) == (201, {"message": "201 Created"})
    deliveries: list[tuple[dict[str, str], Any]] = sent(route)
    assert len(deliveries) == 2
    assert all(headers["x-team"] == "web" for headers, _ in deliveries)
    assert [payload["object_kind"] for _, payload in deliveries] == ["push", "push"]
    events = call(svc, "GET", f"{one}/events")
    assert events.status == 200 and events.header("X-Total") == "2"
    assert {e["trigger"] for e in body(events)} == {"push_hooks"}
    assert {e["response_status"] for e in body(events)} == {"200"}


def test_a_group_without_a_project_with_commits_cannot_test(svc: FakeService) -> None:
    group = body(call(svc, "POST", "/groups", json_body={"name": "Empty", "path": "empty"}))
    hook = add_hook(svc, where=f"/groups/{group['id']}")
    tested = call(svc, "POST", f"/groups/{group['id']}/hooks/{hook['id']}/test/push_events")
    message = "Hook execution failed. Ensure the group has a project with commits."
    assert (tested.status, body(tested)) == (422, {"message": message})
    assert body(call(svc, "GET", "/_fake/hooks/deliveries", token=None)) == []
