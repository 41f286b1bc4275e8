"""Pipeline trigger tokens through raw HTTP: CRUD with roles, the owner-only full token and
the round-trip of ``description``; triggering with the token (JSON, form and the
``ref/:ref`` path form): ``source: trigger`` pipelines with the variables, ``last_used``,
rules seeing ``$CI_PIPELINE_SOURCE``, the service's 400/404 answers leaving state
untouched; a running job's token triggering a downstream pipeline; and the
``pipeline_triggers`` scenario key."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.scenarios.loader import ScenarioError

from .ci_support import ALICE, PROJECT, SCENARIO, commit_file, job_named, new_service

BASE = f"/projects/{PROJECT}/triggers"
RUN = f"/projects/{PROJECT}/trigger/pipeline"


def create(
    svc: FakeService, token: str = ROOT, headers: dict[str, str] | None = None, **fields: Any
) -> dict[str, Any]:
    payload = {"description": "bot", **fields}
    response = call(svc, "POST", BASE, token, json_body=payload, headers=headers)
    assert response.status == 201, response.body
    return body(response)


def fire(svc: FakeService, **payload: Any) -> Any:
    return call(svc, "POST", RUN, None, json_body=payload)


def pipeline_count(svc: FakeService) -> int:
    return len(body(call(svc, "GET", f"/projects/{PROJECT}/pipelines")))


def test_create_answers_the_whole_token_to_its_owner(svc: FakeService) -> None:
    made = create(svc, token=ALICE, expires_at="2026-06-01T00:00:00Z")
    assert made["token"].startswith("glptt-") and len(made["token"]) == 46
    assert {k: v for k, v in made.items() if k not in ("token", "owner")} == {
        "id": made["id"],
        "description": "bot",
        "created_at": "2026-01-01T09:00:00Z",
        "updated_at": "2026-01-01T09:00:00Z",
        "last_used": None,
        "expires_at": "2026-06-01T00:00:00Z",
    }
    assert made["owner"]["username"] == "alice"
    mine = body(call(svc, "GET", f"{BASE}/{made['id']}", ALICE))
    assert mine["token"] == made["token"]
    theirs = body(call(svc, "GET", f"{BASE}/{made['id']}"))
    assert theirs["token"] == made["token"][6:10]  # four characters for everyone else
    assert [t["token"] for t in body(call(svc, "GET", BASE))] == [made["token"][6:10]]


def test_tokens_are_deterministic_and_unique(svc: FakeService) -> None:
    first, second = create(svc), create(svc)
    assert first["token"] != second["token"]
    again = new_service()
    assert create(again)["token"] == first["token"]


def test_description_round_trips_through_get_and_list(svc: FakeService) -> None:
    made = create(svc)
    svc.clock.advance(60)
    edited = call(svc, "PUT", f"{BASE}/{made['id']}", json_body={"description": "deploys"})
    assert edited.status == 200, edited.body
    got = body(call(svc, "GET", f"{BASE}/{made['id']}"))
    listed = body(call(svc, "GET", BASE))
    for answer in (body(edited), got, listed[0]):
        assert answer["description"] == "deploys"
        assert answer["updated_at"] == "2026-01-01T09:01:00Z"
        assert answer["created_at"] == "2026-01-01T09:00:00Z"


def test_roles_and_bad_input(svc: FakeService) -> None:
    made = create(svc)
    one = f"{BASE}/{made['id']}"
    dev = {"Sudo": "dev003"}
    assert call(svc, "GET", BASE, headers=dev).status == 403
    assert body(call(svc, "POST", BASE, headers=dev, json_body={"description": "x"})) == {
        "message": "403 Forbidden"
    }
    assert call(svc, "PUT", one, headers=dev, json_body={"description": "x"}).status == 403
    assert call(svc, "DELETE", one, headers=dev).status == 403
    assert call(svc, "GET", BASE, None).status == 401
    assert body(call(svc, "GET", "/projects/999999/triggers")) == {
        "message": "404 Project Not Found"
    }
    missing = call(svc, "POST", BASE, json_body={})
    assert missing.status == 400 and body(missing) == {"error": "description is missing"}
    bad_date = call(svc, "POST", BASE, json_body={"description": "x", "expires_at": "soon"})
    assert bad_date.status == 400 and body(bad_date) == {"error": "expires_at is invalid"}
    assert body(call(svc, "GET", f"{BASE}/999")) == {"message": "404 Not found"}
    assert call(svc, "GET", f"{BASE}/abc").status == 400
    assert call(svc, "PUT", f"{BASE}/999", json_body={"description": "x"}).status == 404
    assert [t["id"] for t in body(call(svc, "GET", BASE))] == [made["id"]]
    assert body(call(svc, "GET", one))["description"] == "bot"


def test_delete_answers_204_and_the_token_stops_working(svc: FakeService) -> None:
    made = create(svc)
    deleted = call(svc, "DELETE", f"{BASE}/{made['id']}")
    assert deleted.status == 204 and deleted.body == b""
    assert call(svc, "GET", f"{BASE}/{made['id']}").status == 404
    assert body(call(svc, "GET", BASE)) == []
    assert fire(svc, token=made["token"], ref="main").status == 404


def test_trigger_creates_a_trigger_pipeline_with_the_variables(svc: FakeService) -> None:
    made = create(svc, token=ALICE)
    svc.clock.advance(120)
    answer = fire(svc, token=made["token"], ref="main", variables={"DEPLOY": "yes"})
    assert answer.status == 201, answer.body
    created = body(answer)
    assert (created["source"], created["ref"], created["user"]["username"]) == (
        "trigger",
        "main",
        "alice",
    )
    assert created["status"] == "pending" and "detailed_status" in created
    variables = call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/variables")
    assert body(variables) == [{"key": "DEPLOY", "variable_type": "env_var", "value": "yes"}]
    used = body(call(svc, "GET", f"{BASE}/{made['id']}"))
    assert used["last_used"] == "2026-01-01T09:02:00Z"
    assert used["updated_at"] == "2026-01-01T09:00:00Z"
    listed = call(svc, "GET", f"/projects/{PROJECT}/pipelines", query={"source": "trigger"})
    assert [p["id"] for p in body(listed)] == [created["id"]]


def test_form_encoded_variables_and_the_ref_path_form(svc: FakeService) -> None:
    secret = create(svc)["token"]
    form = call(
        svc, "POST", RUN, None, data={"token": secret, "ref": "v1.0", "variables[MODE]": "full"}
    )
    assert form.status == 201, form.body
    assert body(form)["ref"] == "v1.0" and body(form)["tag"] is True
    made = body(form)["id"]
    variables = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{made}/variables"))
    assert variables == [{"key": "MODE", "variable_type": "env_var", "value": "full"}]
    for ref in ("feature%2Fx", "feature/x"):
        at_ref = call(
            svc,
            "POST",
            f"/projects/{PROJECT}/ref/{ref}/trigger/pipeline",
            None,
            query={"token": secret},
        )
        assert at_ref.status == 201, at_ref.body
        assert (body(at_ref)["ref"], body(at_ref)["source"]) == ("feature/x", "trigger")


def test_rules_see_the_trigger_source(svc: FakeService) -> None:
    commit_file(
        svc,
        ".gitlab-ci.yml",
        "triggered:\n"
        "  script: [echo t]\n"
        "  rules:\n"
        '    - if: $CI_PIPELINE_SOURCE == "trigger"\n'
        "always:\n"
        "  script: [echo a]\n",
    )
    secret = create(svc)["token"]
    created = body(fire(svc, token=secret, ref="main"))
    jobs = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/jobs"))
    assert sorted(j["name"] for j in jobs) == ["always", "triggered"]
    by_api = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    jobs = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{body(by_api)['id']}/jobs"))
    assert [j["name"] for j in jobs] == ["always"]


@pytest.mark.parametrize(
    ("payload", "status", "answer"),
    [
        ({"token": "glptt-nope", "ref": "main"}, 404, {"message": "404 Not Found"}),
        ({"token": "", "ref": "main"}, 404, {"message": "404 Not Found"}),
        ({"ref": "main"}, 400, {"error": "token is missing"}),
        ({"token": "{token}"}, 400, {"error": "ref is missing"}),
        ({"token": "{token}", "ref": ""}, 400, {"error": "ref is empty"}),
        (
            {"token": "{token}", "ref": "nope"},
            400,
            {"message": {"base": ["Reference not found"]}},
        ),
        (
            {"token": "{token}", "ref": "main", "variables": {"N": 1}},
            400,
            {"message": "variables needs to be a map of key-valued strings"},
        ),
        ({"token": "{token}", "ref": "main", "variables": "A=1"}, 400, None),
    ],
)
def test_bad_triggers_answer_as_the_service_and_change_nothing(
    svc: FakeService, payload: dict[str, Any], status: int, answer: Any
) -> None:
    made = create(svc)
    filled = {k: made["token"] if v == "{token}" else v for k, v in payload.items()}
    response = fire(svc, **filled)
    assert response.status == status, response.body
    if answer is not None:
        assert body(response) == answer
    assert pipeline_count(svc) == 0
    assert body(call(svc, "GET", f"{BASE}/{made['id']}"))["last_used"] is None


def test_a_token_works_on_its_own_project_only_and_not_once_expired(svc: FakeService) -> None:
    made = create(svc, expires_at="2026-01-01T10:00:00Z")
    other = call(svc, "POST", "/projects/acme%2Fwebsite/trigger/pipeline", None,
                 json_body={"token": made["token"], "ref": "main"})  # fmt: skip
    assert other.status == 404 and body(other) == {"message": "404 Not Found"}
    assert fire(svc, token=made["token"], ref="main").status == 201
    svc.clock.advance(3600)
    assert body(fire(svc, token=made["token"], ref="main")) == {"message": "404 Not Found"}
    unknown = call(svc, "POST", "/projects/999999/trigger/pipeline", None,
                   json_body={"token": made["token"], "ref": "main"})  # fmt: skip
    assert body(unknown) == {"message": "404 Not Found"}


def test_an_owner_without_access_any_more_cannot_trigger(svc: FakeService) -> None:
    members = f"/projects/{PROJECT}/members"
    dev = body(call(svc, "GET", "/users", query={"username": "dev010"}))[0]
    added = call(svc, "POST", members, json_body={"user_id": dev["id"], "access_level": 40})
    assert added.status == 201, added.body
    made = create(svc, headers={"Sudo": "dev010"})
    assert call(svc, "DELETE", f"{members}/{dev['id']}").status == 204
    refused = fire(svc, token=made["token"], ref="main")
    assert refused.status == 400
    assert body(refused) == {
        "message": {"base": ["Insufficient permissions to create a new pipeline"]}
    }
    assert pipeline_count(svc) == 0


def test_inputs_are_refused_without_a_spec_header(svc: FakeService) -> None:
    secret = create(svc)["token"]
    refused = fire(svc, token=secret, ref="main", inputs={"env": "prod"})
    assert refused.status == 400 and "spec" in body(refused)["message"]["base"][0]
    assert fire(svc, token=secret, ref="main", inputs={}).status == 201


def test_a_running_jobs_token_triggers_a_downstream_pipeline(svc: FakeService) -> None:
    upstream = body(call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"}))
    build = job_named(svc, upstream["id"], "build")
    job_token = svc.runner.job_token(build["id"])
    stopped = fire(svc, token=job_token, ref="main")
    assert stopped.status == 400 and body(stopped) == {"message": "400 Job has to be running"}
    svc.runner.start(build["id"])
    answer = fire(svc, token=job_token, ref="feature/x", variables={"FROM": "up"})
    assert answer.status == 201, answer.body
    downstream = body(answer)
    assert (downstream["source"], downstream["ref"]) == ("pipeline", "feature/x")
    assert downstream["user"]["username"] == "root"
    elsewhere = call(svc, "POST", "/projects/acme%2Fwebsite/trigger/pipeline", None,
                     json_body={"token": job_token, "ref": "main"})  # fmt: skip
    assert elsewhere.status == 404  # the website's job token scope keeps acme/pipes out


def test_deleting_the_project_takes_its_tokens(svc: FakeService) -> None:
    secret = create(svc)["token"]
    assert call(svc, "DELETE", f"/projects/{PROJECT}").status in (202, 204)
    from fakeservice.ci.triggers.models import by_token, triggers

    assert len(triggers(svc.store)) == 0 and by_token(svc.store, secret) is None


def test_the_scenario_key_declares_tokens() -> None:
    scenario = dict(SCENARIO)
    project = dict(scenario["projects"][0])
    project["pipeline_triggers"] = [
        {"description": "deploy bot", "owner": "alice", "token": "glptt-deploy-bot"},
        {"description": "old", "owner": "root", "expires_at": "2025-01-01T00:00:00Z"},
    ]
    scenario["projects"] = [project]
    svc = new_service(scenario, key="ci-triggers")
    listed = body(call(svc, "GET", BASE, ALICE))
    assert [(t["description"], t["owner"]["username"]) for t in listed] == [
        ("deploy bot", "alice"),
        ("old", "root"),
    ]
    assert listed[0]["token"] == "glptt-deploy-bot"
    assert listed[1]["expires_at"] == "2025-01-01T00:00:00Z"
    assert fire(svc, token="glptt-deploy-bot", ref="main").status == 201
    project["pipeline_triggers"] = [{"description": "x", "owner": "nobody"}]
    with pytest.raises(ScenarioError, match="unknown user"):
        new_service(scenario, key="ci-triggers-bad")
