"""Commit statuses (``POST /projects/:id/statuses/:sha`` and the list of a commit's
statuses) through raw HTTP and python-gitlab: the state machine, the pipeline they make or
join and whose status they feed, filters, roles and errors."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest

from fakeservice import FakeService
from fakeservice.scenarios.problems import ScenarioError

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "maint", "name": "Mai Maintainer", "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "tokens": [{"token": "dev-token"}]},
        {"username": "rep", "tokens": [{"token": "rep-token"}]},
    ],
    "projects": [
        {"path": "maint/web", "visibility": "public", "creator": "maint",
         "members": [{"user": "dev", "role": "developer"}, {"user": "rep", "role": "reporter"}],
         "files": {"README.md": "# Web\n"}},
    ],
}  # fmt: skip
P = "/projects/maint%2Fweb"


def head(svc: FakeService) -> str:
    return svc.request("GET", f"{P}/repository/branches/main", token="dev-token").json()["commit"][
        "id"
    ]


def post(svc: FakeService, sha: str, token: str = "dev-token", **body: Any) -> Any:
    return svc.request("POST", f"{P}/statuses/{sha}", token=token, json_body=body)


def pipeline(svc: FakeService, pipeline_id: int) -> dict[str, Any]:
    return svc.request("GET", f"{P}/pipelines/{pipeline_id}", token="dev-token").json()


def test_post_makes_an_external_pipeline_and_moves_through_the_machine(svc: FakeService) -> None:
    sha = head(svc)
    first = post(svc, sha, state="pending", context="ci/bot", target_url="https://ci/1")
    assert first.status == 201
    body = first.json()
    assert body["status"] == "pending"
    assert (body["name"], body["ref"], body["sha"], body["target_url"]) == (
        "ci/bot",
        "main",
        sha,
        "https://ci/1",
    )
    assert body["author"]["username"] == "dev"
    assert (body["started_at"], body["finished_at"], body["coverage"]) == (None, None, None)
    made = pipeline(svc, body["pipeline_id"])
    assert (made["status"], made["source"], made["sha"]) == ("pending", "external", sha)
    svc.clock.advance(5)
    running = post(svc, sha, state="running", name="ci/bot", description="go").json()
    assert running["id"] == body["id"]
    assert (running["status"], running["description"]) == ("running", "go")
    assert running["started_at"] is not None
    assert pipeline(svc, body["pipeline_id"])["status"] == "running"
    again = post(svc, sha, state="running", name="ci/bot")
    assert again.status == 400
    assert again.json() == {
        "message": "Cannot transition status via :run from :running (Reason(s): Status cannot "
        'transition via "run")'
    }
    svc.clock.advance(10)
    done = post(svc, sha, state="failed", name="ci/bot", coverage=81.5).json()
    assert (done["status"], done["coverage"], done["id"]) == ("failed", 81.5, body["id"])
    assert done["finished_at"] is not None
    assert pipeline(svc, body["pipeline_id"])["status"] == "failed"
    # a new report of a finished status makes a new one; the old one is retried
    fixed = post(svc, sha, state="success", name="ci/bot").json()
    assert fixed["id"] != body["id"] and fixed["pipeline_id"] == body["pipeline_id"]
    assert pipeline(svc, body["pipeline_id"])["status"] == "success"
    listed = svc.request("GET", f"{P}/repository/commits/{sha}/statuses", token="dev-token")
    assert [s["id"] for s in listed.json()] == [fixed["id"]]
    every = svc.request(
        "GET", f"{P}/repository/commits/{sha}/statuses", token="dev-token", query={"all": "true"}
    ).json()
    assert [s["status"] for s in every] == ["failed", "success"]
    # external statuses are not builds
    assert svc.request("GET", f"{P}/jobs", token="dev-token").json() == []


def test_several_names_compose_the_pipeline_status(svc: FakeService) -> None:
    sha = head(svc)
    a = post(svc, sha, state="success", name="lint").json()
    post(svc, sha, state="running", name="test")
    assert pipeline(svc, a["pipeline_id"])["status"] == "running"
    post(svc, sha, state="success", name="test")
    assert pipeline(svc, a["pipeline_id"])["status"] == "success"
    post(svc, sha, state="canceled", name="deploy")
    assert pipeline(svc, a["pipeline_id"])["status"] == "canceled"
    skipped = post(svc, sha, state="skipped", name="docs").json()
    assert skipped["status"] == "skipped" and skipped["finished_at"] is None
    url = f"{P}/repository/commits/{sha}/statuses"
    names = [s["name"] for s in svc.request("GET", url, token="dev-token").json()]
    assert names == ["lint", "test", "deploy", "docs"]
    desc = svc.request("GET", url, token="dev-token", query={"sort": "desc"}).json()
    assert [s["name"] for s in desc] == ["docs", "deploy", "test", "lint"]
    only = svc.request("GET", url, token="dev-token", query={"name": "test"}).json()
    assert [s["status"] for s in only] == ["success"]
    assert svc.request("GET", url, token="dev-token", query={"ref": "other"}).json() == []
    staged = svc.request("GET", url, token="dev-token", query={"stage": "external"}).json()
    assert len(staged) == 4
    paged = svc.request("GET", url, token="dev-token", query={"per_page": 1, "page": 2})
    assert [s["name"] for s in paged.json()] == ["test"]
    assert paged.header("X-Total") == "4"


def test_ref_and_pipeline_id_choose_the_pipeline(svc: FakeService) -> None:
    sha = head(svc)
    svc.request(
        "POST",
        f"{P}/repository/branches",
        token="dev-token",
        json_body={"branch": "zz", "ref": "main"},
    )
    on_main = post(svc, sha, state="pending").json()
    on_b = post(svc, sha, state="pending", ref="zz").json()
    # without ``ref``: the first branch by name that holds the commit
    assert on_main["ref"] == "main" and on_b["ref"] == "zz"
    assert on_b["pipeline_id"] != on_main["pipeline_id"]
    joined = post(svc, sha, state="success", name="x", pipeline_id=on_main["pipeline_id"]).json()
    assert (joined["pipeline_id"], joined["ref"]) == (on_main["pipeline_id"], "main")


@pytest.mark.parametrize(
    ("token", "body", "status", "message"),
    [
        ("rep-token", {"state": "success"}, 403, "403 Forbidden"),
        (None, {"state": "success"}, 401, "401 Unauthorized"),
        ("dev-token", {"state": "bogus"}, 400, None),
        ("dev-token", {}, 400, None),
        ("dev-token", {"state": "success", "coverage": "lots"}, 400, None),
    ],
)
def test_post_refusals_change_nothing(
    svc: FakeService, token: str | None, body: dict[str, Any], status: int, message: str | None
) -> None:
    sha = head(svc)
    answer = svc.request("POST", f"{P}/statuses/{sha}", token=token, json_body=body)
    assert answer.status == status
    if message is not None:
        assert answer.json() == {"message": message}
    listed = svc.request("GET", f"{P}/repository/commits/{sha}/statuses", token="dev-token")
    assert listed.json() == []
    assert svc.request("GET", f"{P}/pipelines", token="dev-token").json() == []


def test_unknown_commit_is_404(svc: FakeService) -> None:
    missing = "1" * 40
    assert post(svc, missing, state="success").json() == {"message": "404 Commit Not Found"}
    listed = svc.request("GET", f"{P}/repository/commits/{missing}/statuses", token="dev-token")
    assert (listed.status, listed.json()) == (404, {"message": "404 Commit Not Found"})


def test_python_gitlab(served: tuple[FakeService, str], svc: FakeService) -> None:
    gl = gitlab.Gitlab(served[1], private_token="dev-token", retry_transient_errors=False)
    commit = gl.projects.get("maint/web").commits.get("main")
    made = commit.statuses.create({"state": "running", "name": "bot", "target_url": "https://x"})
    assert (made.status, made.name, made.target_url) == ("running", "bot", "https://x")
    commit.statuses.create({"state": "success", "name": "bot", "coverage": 90.0})
    listed = commit.statuses.list()
    assert [(s.name, s.status, s.coverage) for s in listed] == [("bot", "success", 90.0)]
    commit.statuses.create({"state": "running", "name": "bot"})
    with pytest.raises(gitlab.GitlabCreateError) as refused:
        commit.statuses.create({"state": "running", "name": "bot"})
    assert refused.value.response_code == 400


def test_scenario_statuses() -> None:
    scenario = {
        "users": [{"username": "u", "tokens": [{"token": "u-token"}]}],
        "projects": [{"path": "u/p", "files": {"a": "a"}, "statuses": [
            {"state": "running", "name": "bot", "target_url": "https://ci/1"},
            {"state": "success", "name": "bot", "coverage": 75},
            {"state": "failed", "name": "lint", "description": "2 errors"},
        ]}],
    }  # fmt: skip
    svc = FakeService(scenario)
    url = "/projects/u%2Fp/repository/commits/main/statuses"
    listed = svc.request("GET", url, token="u-token").json()
    assert [(s["name"], s["status"], s["coverage"]) for s in listed] == [
        ("bot", "success", 75.0),
        ("lint", "failed", None),
    ]
    pipeline = svc.request(
        "GET", f"/projects/u%2Fp/pipelines/{listed[0]['pipeline_id']}", token="u-token"
    )
    assert pipeline.json()["status"] == "failed"
    refused = dict(scenario)
    refused["projects"] = [{"path": "u/p", "files": {"a": "a"}, "statuses": [
        {"state": "running", "name": "bot"}, {"state": "running", "name": "bot"},
    ]}]  # fmt: skip
    with pytest.raises(ScenarioError) as caught:
        FakeService(refused)
    assert any(
        "Cannot transition status via :run from :running" in m for _, m in caught.value.problems
    )
