"""The request journal: what it records, filters, counts, and what it leaves out."""

from __future__ import annotations

from fakeservice import FakeService


def test_records_method_path_query_user_status_and_body(fake_service: FakeService) -> None:
    fake_service.request("GET", "/users", query={"per_page": 2}, token="root-token")
    fake_service.request("POST", "/projects", json_body={"name": "demo"}, token="alice-token")
    first, second = fake_service.journal.entries()
    assert (first.method, first.path, first.query, first.user, first.status) == (
        "GET",
        "/api/v4/users",
        {"per_page": "2"},
        "root",
        200,
    )
    assert (second.method, second.user, second.status, second.body) == (
        "POST",
        "alice",
        201,
        {"name": "demo"},
    )
    assert second.seq == first.seq + 1
    assert first.time == "2026-01-01T09:00:00Z"


def test_filters_and_count(fake_service: FakeService) -> None:
    fake_service.request("GET", "/projects/acme%2Fwebsite", token="alice-token")
    fake_service.request("GET", "/projects/acme%2Fwebsite", token="root-token")
    fake_service.request("POST", "/projects", json_body={"name": "x"}, token="alice-token")
    journal = fake_service.journal
    assert journal.count() == 3
    assert journal.count(method="POST", path="/projects") == 1
    assert journal.count(path="/projects/*") == 2
    assert journal.count(path="/api/v4/projects/acme%2Fwebsite") == 2
    assert journal.count(path="/projects/acme/website") == 2
    assert journal.count(user="ALICE") == 2
    assert journal.count(status=201) == 1
    assert journal.count(method="get,post", path="/**") == 3


def test_sudo_and_form_bodies(fake_service: FakeService) -> None:
    fake_service.request("GET", "/user", token="root-token", headers={"Sudo": "alice"})
    fake_service.request("POST", "/projects", data={"name": "formed"}, token="alice-token")
    sudo, form = fake_service.journal.entries()
    assert (sudo.user, sudo.sudo_by) == ("alice", "root")
    assert form.body == {"name": "formed"}


def test_control_plane_requests_are_not_recorded(fake_service: FakeService) -> None:
    fake_service.request("GET", "/_fake/clock")
    fake_service.request("GET", "/version", token="root-token")
    assert [e.path for e in fake_service.journal] == ["/api/v4/version"]


def test_http_listing_and_clearing(fake_service: FakeService) -> None:
    fake_service.request("GET", "/version", token="root-token")
    fake_service.request("GET", "/version")
    listed = fake_service.request("GET", "/_fake/journal", query={"user": "root"}).json()
    assert listed["count"] == 1
    assert listed["entries"][0] == {
        "seq": 1,
        "time": "2026-01-01T09:00:00Z",
        "method": "GET",
        "path": "/api/v4/version",
        "query": {},
        "user": "root",
        "sudo_by": None,
        "status": 200,
        "body": None,
        "dropped": False,
    }
    anonymous = fake_service.request("GET", "/_fake/journal", query={"status": 401}).json()
    assert anonymous["count"] == 1
    bad = fake_service.request("GET", "/_fake/journal", query={"path": "no-slash"})
    assert bad.status == 400
    assert bad.json() == {"error": "path pattern 'no-slash' must start with '/'"}
    assert fake_service.request("DELETE", "/_fake/journal").status == 204
    assert fake_service.request("GET", "/_fake/journal").json() == {"count": 0, "entries": []}


def test_capacity_forgets_oldest_first() -> None:
    from fakeservice.control.journal import Journal
    from fakeservice.web.http import Request

    journal = Journal(capacity=2)
    for n in range(3):
        journal.record(Request("GET", f"/p/{n}"), status=200, time="t", user=None)
    assert [e.path for e in journal] == ["/p/1", "/p/2"]
    last = journal.last()
    assert last is not None and last.seq == 3
