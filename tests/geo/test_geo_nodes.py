"""Geo nodes over raw HTTP and python-gitlab: the seven operations, defaults and
validation, primary-only edits, ``internal_url`` falling back to ``url``, and statuses
with counters from the fake's own records."""

from __future__ import annotations

import re
from typing import Any

import gitlab
import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

NEW = {"name": "replica-eu", "url": "https://eu.example.com"}


def test_default_scenario_nodes(geo_svc: FakeService) -> None:
    nodes = body(call(geo_svc, "GET", "/geo_nodes"))
    assert [(n["id"], n["name"], n["primary"], n["current"]) for n in nodes] == [
        (1, "fakeservice", True, True),
        (2, "replica", False, False),
    ]
    assert (
        nodes[1]["web_geo_projects_url"]
        == "https://replica.fakeservice.test/admin/geo/replication/projects"
    )
    assert nodes[0]["web_geo_projects_url"] is None


def test_create_with_defaults(geo_svc: FakeService) -> None:
    created = call(geo_svc, "POST", "/geo_nodes", json_body=NEW)
    assert created.status == 201
    node = body(created)
    api = f"http://fakeservice.test/api/v4/geo_nodes/{node['id']}"
    assert node == {
        "id": 3,
        "name": "replica-eu",
        "url": "https://eu.example.com/",
        "internal_url": "https://eu.example.com/",
        "primary": False,
        "enabled": True,
        "current": False,
        "files_max_capacity": 10,
        "repos_max_capacity": 25,
        "verification_max_capacity": 100,
        "container_repositories_max_capacity": 10,
        "selective_sync_type": None,
        "selective_sync_shards": [],
        "selective_sync_namespace_ids": [],
        "minimum_reverification_interval": 7,
        "sync_object_storage": False,
        "clone_protocol": "http",
        "web_edit_url": "http://fakeservice.test/admin/geo/sites/3/edit",
        "web_geo_projects_url": "https://eu.example.com/admin/geo/replication/projects",
        "_links": {"self": api, "status": f"{api}/status", "repair": f"{api}/repair"},
    }
    assert body(call(geo_svc, "GET", "/geo_nodes/3")) == node
    internal = body(call(geo_svc, "POST", "/geo_nodes", json_body={
        "name": "ap", "url": "https://ap.example.com/", "internal_url": "http://10.0.0.7",
        "selective_sync_type": "shards", "selective_sync_shards": ["storage2"],
    }))  # fmt: skip
    assert (internal["internal_url"], internal["selective_sync_shards"]) == (
        "http://10.0.0.7/",
        ["storage2"],
    )


@pytest.mark.parametrize(
    ("payload", "status", "answer"),
    [
        ({"url": "https://x.example.com"}, 400, {"error": "name is missing"}),
        ({"name": "x"}, 400, {"error": "url is missing"}),
        ({**NEW, "repos_max_capacity": "many"}, 400, {"error": "repos_max_capacity is invalid"}),
        ({**NEW, "selective_sync_type": "all"}, 400, {"error": "selective_sync_type does not have a valid value"}),
        ({**NEW, "name": "REPLICA"}, 400, {"message": {"name": ["has already been taken"]}}),
        ({**NEW, "primary": True}, 400, {"message": {"primary": ["node already exists"]}}),
        ({**NEW, "url": "ftp://x"}, 400, {"message": {"url": ["must be a valid URL"]}}),
        ({**NEW, "files_max_capacity": -1}, 400, {"message": {"files_max_capacity": ["must be greater than or equal to 0"]}}),
        ({**NEW, "minimum_reverification_interval": 0}, 400,
         {"message": {"minimum_reverification_interval": ["must be greater than or equal to 1"]}}),
    ],
)  # fmt: skip
def test_create_validation(
    geo_svc: FakeService, payload: dict[str, Any], status: int, answer: Any
) -> None:
    response = call(geo_svc, "POST", "/geo_nodes", json_body=payload)
    assert (response.status, body(response)) == (status, answer)
    assert len(body(call(geo_svc, "GET", "/geo_nodes"))) == 2


def test_edit_delete_repair(geo_svc: FakeService) -> None:
    missing = call(geo_svc, "PUT", "/geo_nodes/2", json_body={"enabled": False})
    assert body(missing) == {"error": "name is missing, url is missing"}
    edited = body(call(geo_svc, "PUT", "/geo_nodes/2", json_body={
        "name": "replica", "url": "https://replica.fakeservice.test", "enabled": False, "repos_max_capacity": 5,
    }))  # fmt: skip
    assert (edited["enabled"], edited["repos_max_capacity"], edited["files_max_capacity"]) == (
        False,
        5,
        10,
    )
    repaired = call(geo_svc, "POST", "/geo_nodes/2/repair")
    assert (repaired.status, body(repaired)["id"]) == (200, 2)
    assert call(geo_svc, "DELETE", "/geo_nodes/2").status == 204
    gone = call(geo_svc, "GET", "/geo_nodes/2")
    assert (gone.status, body(gone)) == (404, {"message": "404 GeoNode Not Found"})


def test_changes_only_from_the_primary(geo_svc: FakeService) -> None:
    # make this instance's own node a secondary: a new primary elsewhere
    call(
        geo_svc,
        "PUT",
        "/geo_nodes/1",
        json_body={"name": "fakeservice", "url": "http://fakeservice.test", "primary": False},
    )
    call(
        geo_svc,
        "POST",
        "/geo_nodes",
        json_body={"name": "main", "url": "https://main.example.com", "primary": True},
    )
    for method, path, payload in (
        ("PUT", "/geo_nodes/2", {"name": "replica", "url": "https://r.example.com"}),
        ("DELETE", "/geo_nodes/2", None),
        ("POST", "/geo_nodes/2/repair", None),
    ):
        response = call(geo_svc, method, path, json_body=payload)
        assert (response.status, body(response)) == (403, {"message": "403 Forbidden"})
    assert body(call(geo_svc, "GET", "/geo_nodes/2"))["url"] == "https://replica.fakeservice.test/"


def test_administrators_only_and_paid_self_managed(geo_svc: FakeService) -> None:
    for token, status in ((None, 401), ("alice-token", 403)):
        for method, path in (
            ("GET", "/geo_nodes"),
            ("POST", "/geo_nodes"),
            ("GET", "/geo_nodes/status"),
        ):
            assert call(geo_svc, method, path, token, json_body=NEW).status == status
    free = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
            "instance": {"plan": "premium", "self_managed": False},
        }
    )
    assert body(call(free, "GET", "/geo_nodes")) == {"message": "403 Forbidden"}


def test_statuses_count_the_fake_records(geo_svc: FakeService) -> None:
    statuses = body(call(geo_svc, "GET", "/geo_nodes/status"))
    assert body(call(geo_svc, "GET", "/geo_nodes/statuses")) == statuses
    primary, secondary = statuses
    assert (primary["geo_node_id"], secondary["geo_node_id"]) == (1, 2)
    with_repo = 2  # the default scenario's projects with files: acme/website, alice/dotfiles
    assert primary["repositories_count"] == secondary["repositories_count"] == with_repo
    assert primary["repositories_checksummed_count"] == with_repo
    assert primary["repositories_synced_count"] is None
    assert secondary["repositories_synced_count"] == with_repo
    assert secondary["repositories_synced_in_percentage"] == "100.00%"
    assert secondary["uploads_synced_in_percentage"] == "0.00%"
    for status in statuses:
        for key, value in status.items():
            if key.endswith("_in_percentage") and value is not None:
                assert re.fullmatch(r"\d+\.\d\d%", value), key
    call(
        geo_svc,
        "PUT",
        "/geo_nodes/2",
        json_body={"name": "replica", "url": "https://replica.fakeservice.test", "enabled": False},
    )
    one = body(call(geo_svc, "GET", "/geo_nodes/2/status"))
    assert (one["repositories_synced_count"], one["repositories_synced_in_percentage"]) == (
        0,
        "0.00%",
    )
    call(geo_svc, "POST", "/projects", json_body={"name": "fresh", "initialize_with_readme": True})
    assert body(call(geo_svc, "GET", "/geo_nodes/1/status"))["repositories_count"] == with_repo + 1


def test_percentage_format() -> None:
    from fakeservice.geo.status import percentage

    assert [percentage(1, 3), percentage(2, 3), percentage(0, 0), percentage(5, 5)] == [
        "33.33%", "66.67%", "0.00%", "100.00%"]  # fmt: skip


def test_python_gitlab_geonodes(geo_svc: FakeService) -> None:
    with geo_svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        nodes = gl.geonodes.list(get_all=True)
        assert [n.name for n in nodes] == ["fakeservice", "replica"]
        node = gl.geonodes.get(2)
        node.repos_max_capacity = 40
        node.name, node.url = node.name, node.url  # the spec requires both on edit
        node.save()
        assert gl.geonodes.get(2).repos_max_capacity == 40
        assert node.status()["geo_node_id"] == 2
        node.repair()
        statuses = gl.geonodes.status()
        assert [s["geo_node_id"] for s in statuses] == [1, 2]
        node.delete()
        assert [n.name for n in gl.geonodes.list(get_all=True)] == ["fakeservice"]


def test_the_instance_node_name_comes_from_the_scenario() -> None:
    svc = FakeService({
        "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
        "instance": {"geo_node_name": "site-b"},
        "geo_nodes": [{"name": "site-a", "url": "https://a.example.com", "primary": True},
                      {"name": "site-b", "url": "https://b.example.com"}],
    })  # fmt: skip
    assert [n["current"] for n in body(call(svc, "GET", "/geo_nodes"))] == [False, True]
    refused = call(svc, "DELETE", "/geo_nodes/1")
    assert (refused.status, body(refused)) == (403, {"message": "403 Forbidden"})


def test_repository_count_is_kept_not_scanned(geo_svc: FakeService) -> None:
    """The count follows projects gaining a repository and going away, and the per-test
    undo puts it back; it equals a scan of the repositories at every step."""
    from fakeservice.geo.repositories import count
    from fakeservice.projects.models import projects
    from fakeservice.repository.models import find_repository

    def scanned() -> int:
        store = geo_svc.store
        found = [find_repository(store, p) for p in projects(store)]
        return sum(1 for repo in found if repo is not None and not repo.is_empty)

    def shown() -> int:
        return int(body(call(geo_svc, "GET", "/geo_nodes/1/status"))["repositories_count"])

    before = shown()
    assert before == scanned() == count(geo_svc.store) == 2
    made = call(geo_svc, "POST", "/projects", json_body={"name": "fresh"})
    assert shown() == before  # no commit yet
    pid = body(made)["id"]
    commit = {"branch": "main", "commit_message": "c", "actions": [
        {"action": "create", "file_path": "a.txt", "content": "a"}]}  # fmt: skip
    assert (
        call(geo_svc, "POST", f"/projects/{pid}/repository/commits", json_body=commit).status == 201
    )
    assert shown() == scanned() == before + 1
    assert call(geo_svc, "DELETE", f"/projects/{pid}").status == 202
    assert shown() == scanned() == before
    geo_svc.reset()
    assert shown() == scanned() == before


def test_a_state_without_the_kept_count_gets_it_on_first_read(geo_svc: FakeService) -> None:
    from fakeservice.geo.repositories import KEY, count

    expected = count(geo_svc.store)
    del geo_svc.store.extras[KEY]
    assert count(geo_svc.store) == expected == 2
    assert KEY in geo_svc.store.extras
