"""Environments and deployments made by CI jobs with ``environment:``: raw HTTP and
python-gitlab (``project.environments``, ``project.deployments``)."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import ROOT, body, call
from support.services import stamp

from fakeservice import FakeService

PROJECT = "acme%2Fdeploys"
CI_FILE = """\
stages: [build, deploy, cleanup]
build:
  stage: build
  script: [make]
deploy:
  stage: deploy
  script: [make deploy]
  environment:
    name: production
    url: https://shop.example.com
    on_stop: stop
review:
  stage: deploy
  script: [make review]
  environment: review/app
stop:
  stage: cleanup
  script: [make stop]
  when: manual
  environment:
    name: production
    action: stop
"""
SCENARIO: dict[str, Any] = {
    "extends": "default",
    "projects": [
        {
            "path": "acme/deploys",
            "name": "Deploys",
            "visibility": "private",
            "default_branch": "main",
            "files": {".gitlab-ci.yml": CI_FILE},
        }
    ],
}


def _service() -> tuple[FakeService, dict[str, Any]]:
    svc = stamp(dict(SCENARIO), "deployments")
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert response.status == 201, response.body
    return svc, body(response)


def _get(svc: FakeService, path: str, **query: Any) -> Any:
    response = call(svc, "GET", f"/projects/{PROJECT}{path}", query=query or None)
    assert response.status == 200, response.body
    return body(response)


def test_jobs_create_environments_and_deployments() -> None:
    svc, created = _service()
    envs = _get(svc, "/environments")
    assert [(e["name"], e["state"], e["external_url"]) for e in envs] == [
        ("production", "available", "https://shop.example.com"),
        ("review/app", "available", None),
    ]
    deps = _get(svc, "/deployments")
    assert [(d["iid"], d["status"], d["environment"]["name"]) for d in deps] == [
        (1, "created", "production"),
        (2, "created", "review/app"),
    ]
    first = deps[0]
    assert first["deployable"]["name"] == "deploy"
    assert first["ref"] == "main" and first["sha"] == created["sha"]
    assert first["user"]["username"] == "root"
    assert _get(svc, f"/deployments/{first['id']}") == first


def test_deployments_follow_their_jobs() -> None:
    svc, created = _service()
    svc.runner.run_all(created["id"])
    deps = _get(svc, "/deployments")
    assert [d["status"] for d in deps] == ["success", "success"]
    assert _get(svc, "/deployments", status="success", environment="review/app")[0]["iid"] == 2
    assert _get(svc, "/deployments", status="failed") == []
    assert [d["iid"] for d in _get(svc, "/deployments", sort="desc")] == [2, 1]
    production = _get(svc, "/environments", name="production")[0]
    detail = _get(svc, f"/environments/{production['id']}")
    assert detail["last_deployment"]["iid"] == 1
    assert detail["last_deployment"]["status"] == "success"


def test_stop_job_stops_the_environment() -> None:
    svc, created = _service()
    svc.runner.run_all(created["id"])
    jobs = _get(svc, f"/pipelines/{created['id']}/jobs")
    stop = next(job for job in jobs if job["name"] == "stop")
    response = call(svc, "POST", f"/projects/{PROJECT}/jobs/{stop['id']}/play")
    assert response.status == 201, response.body
    svc.runner.run_all(created["id"])
    assert _get(svc, "/environments", states="stopped")[0]["name"] == "production"
    assert [e["name"] for e in _get(svc, "/environments", states="available")] == ["review/app"]
    assert [e["name"] for e in _get(svc, "/environments", search="review")] == ["review/app"]


def test_unknown_ids_and_bad_filters() -> None:
    svc, _created = _service()
    assert call(svc, "GET", f"/projects/{PROJECT}/environments/999").status == 404
    assert call(svc, "GET", f"/projects/{PROJECT}/deployments/999").status == 404
    bad = call(svc, "GET", f"/projects/{PROJECT}/deployments", query={"status": "nope"})
    assert bad.status == 400
    assert call(svc, "GET", f"/projects/{PROJECT}/environments", None).status == 401


def test_python_gitlab() -> None:
    svc, created = _service()
    svc.runner.run_all(created["id"])
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        project = gl.projects.get("acme/deploys")
        envs = project.environments.list(get_all=True)
        assert [env.name for env in envs] == ["production", "review/app"]
        env = project.environments.get(envs[0].id)
        assert env.last_deployment["deployable"]["name"] == "deploy"
        deps = project.deployments.list(get_all=True, order_by="iid", sort="asc")
        assert [(d.iid, d.status) for d in deps] == [(1, "success"), (2, "success")]
        assert project.deployments.get(deps[1].id).environment["name"] == "review/app"


def _send(svc: FakeService, method: str, path: str, **kw: Any) -> Any:
    return call(svc, method, f"/projects/{PROJECT}{path}", **kw)


def test_create_edit_delete() -> None:
    svc, _created = _service()
    made = _send(svc, "POST", "/environments", json_body={"name": "qa", "tier": "testing"})
    assert made.status == 201, made.body
    env = body(made)
    assert (env["name"], env["state"], env["tier"], env["external_url"]) == (
        "qa",
        "available",
        "testing",
        None,
    )
    taken = _send(svc, "POST", "/environments", json_body={"name": "qa"})
    assert (taken.status, body(taken)) == (400, {"message": {"name": ["has already been taken"]}})
    bad = _send(svc, "POST", "/environments", json_body={"name": "/x", "external_url": "ftp://a"})
    assert bad.status == 400
    assert set(body(bad)["message"]) == {"name", "external_url"}
    assert [e["name"] for e in _get(svc, "/environments")] == ["production", "review/app", "qa"]

    edited = _send(
        svc, "PUT", f"/environments/{env['id']}", json_body={"external_url": "https://qa.example"}
    )
    assert edited.status == 200 and body(edited)["external_url"] == "https://qa.example"
    assert _get(svc, f"/environments/{env['id']}")["external_url"] == "https://qa.example"
    assert _get(svc, f"/environments/{env['id']}")["last_deployment"] is None

    refused = _send(svc, "DELETE", f"/environments/{env['id']}")
    assert (refused.status, body(refused)) == (403, {"message": "403 Forbidden"})
    stopped = _send(svc, "POST", f"/environments/{env['id']}/stop")
    assert stopped.status == 200 and body(stopped)["state"] == "stopped"
    assert _send(svc, "DELETE", f"/environments/{env['id']}").status == 204
    assert _send(svc, "GET", f"/environments/{env['id']}").status == 404


def test_stop_plays_the_on_stop_job() -> None:
    svc, created = _service()
    svc.runner.run_all(created["id"])
    production = _get(svc, "/environments", name="production")[0]
    stopping = _send(svc, "POST", f"/environments/{production['id']}/stop")
    assert body(stopping)["state"] == "stopping"
    jobs = _get(svc, f"/pipelines/{created['id']}/jobs")
    assert next(job for job in jobs if job["name"] == "stop")["status"] == "pending"
    svc.runner.run_all(created["id"])
    assert _get(svc, f"/environments/{production['id']}")["state"] == "stopped"
    # with the stop job gone, force is not needed; a deployment makes it available again
    again = _send(svc, "POST", "/pipeline", json_body={"ref": "main"})
    assert again.status == 201
    assert _get(svc, f"/environments/{production['id']}")["state"] == "available"


def test_force_stop_skips_the_job() -> None:
    svc, created = _service()
    svc.runner.run_all(created["id"])
    production = _get(svc, "/environments", name="production")[0]
    forced = _send(svc, "POST", f"/environments/{production['id']}/stop", json_body={"force": True})
    assert body(forced)["state"] == "stopped"
    jobs = _get(svc, f"/pipelines/{created['id']}/jobs")
    assert next(job for job in jobs if job["name"] == "stop")["status"] == "manual"


def test_retry_deploys_again_and_orders() -> None:
    svc, created = _service()
    svc.runner.run_all(created["id"])
    deploy = next(j for j in _get(svc, f"/pipelines/{created['id']}/jobs") if j["name"] == "deploy")
    before = _get(svc, "/deployments")[1]["updated_at"]
    svc.clock.advance(seconds=60)
    assert _send(svc, "POST", f"/jobs/{deploy['id']}/retry").status == 201
    deps = _get(svc, "/deployments", environment="production")
    assert [(d["iid"], d["status"]) for d in deps] == [(1, "success"), (3, "created")]
    assert [d["iid"] for d in _get(svc, "/deployments", updated_after=before)] == [3]
    newest = _get(svc, "/deployments", order_by="updated_at", sort="desc")
    assert [d["iid"] for d in newest] == [3, 2, 1]
    assert len(_get(svc, "/deployments", order_by="ref")) == 3


def test_filters_are_validated() -> None:
    svc, _created = _service()
    both = _send(svc, "GET", "/environments", query={"name": "a", "search": "b"})
    assert both.status == 400
    assert _send(svc, "GET", "/environments", query={"states": "gone"}).status == 400
    assert _send(svc, "GET", "/deployments", query={"order_by": "nope"}).status == 400
    reader = call(svc, "POST", f"/projects/{PROJECT}/environments", None, json_body={"name": "x"})
    assert reader.status == 401


def test_project_deletion_drops_environments() -> None:
    svc, _created = _service()
    assert call(svc, "DELETE", f"/projects/{PROJECT}").status == 202
    assert len(svc.store.tables["environments"]) == 0
    assert len(svc.store.tables["deployments"]) == 0


def test_python_gitlab_manages_environments() -> None:
    svc, created = _service()
    svc.runner.run_all(created["id"])
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        project = gl.projects.get("acme/deploys")
        env = project.environments.create({"name": "qa", "external_url": "https://qa.example"})
        env.external_url = "https://qa2.example"
        env.save()
        assert project.environments.get(env.id).external_url == "https://qa2.example"
        env.stop()
        assert project.environments.get(env.id).state == "stopped"
        env.delete()
        assert [e.name for e in project.environments.list(get_all=True)] == [
            "production",
            "review/app",
        ]
