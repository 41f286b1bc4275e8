"""Deployment and wiki page events: a job with ``environment:`` sends a Deployment Hook
as its deployment runs and finishes; wiki pages created, edited and deleted send Wiki
Page Hooks."""

from __future__ import annotations

import json
from typing import Any

from support.calls import body, call
from support.services import stamp

from .conftest import HOOK_URL

CI_FILE = """\
stages: [build, deploy]
build:
  stage: build
  script: [make]
deploy:
  stage: deploy
  script: [make deploy]
  environment:
    name: production
    url: https://shop.example.com
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
            "hooks": [{"url": HOOK_URL, "push_events": False, "deployment_events": True}],
        }
    ],
}


def test_a_deployment_is_announced_as_it_runs_and_finishes(captured: Any) -> None:
    svc = stamp(dict(SCENARIO), "hooks-deployments")
    svc.runner.set_mode("timed")
    created = body(
        call(svc, "POST", "/projects/acme%2Fdeploys/pipeline", json_body={"ref": "main"})
    )
    svc.clock.advance(seconds=600)
    payloads = [json.loads(c.request.content) for c in captured.calls]
    assert [c.request.headers["X-Service-Event"] for c in captured.calls] == ["Deployment Hook"] * 2
    assert [p["status"] for p in payloads] == ["running", "success"]
    last = payloads[-1]
    assert last["object_kind"] == "deployment"
    assert (last["environment"], last["environment_tier"]) == ("production", "production")
    assert last["environment_external_url"] == "https://shop.example.com"
    assert last["short_sha"] == created["sha"][:8]
    assert last["deployable_url"].endswith(f"/-/jobs/{last['deployable_id']}")
    assert last["user"]["username"] == "root"


def test_wiki_pages(svc: Any, captured: Any) -> None:
    call(
        svc,
        "POST",
        "/projects/acme%2Fwebsite/hooks",
        json_body={"url": HOOK_URL, "push_events": False, "wiki_page_events": True},
    )
    wikis = "/projects/acme%2Fwebsite/wikis"
    assert (
        call(svc, "POST", wikis, json_body={"title": "Runbook", "content": "# Run"}).status == 201
    )
    assert call(svc, "PUT", f"{wikis}/Runbook", json_body={"content": "# Run it"}).status == 200
    assert call(svc, "DELETE", f"{wikis}/Runbook").status == 204
    payloads = [json.loads(c.request.content) for c in captured.calls]
    assert [c.request.headers["X-Gitlab-Event"] for c in captured.calls] == ["Wiki Page Hook"] * 3
    assert [p["object_attributes"]["action"] for p in payloads] == ["create", "update", "delete"]
    first = payloads[0]
    assert first["object_kind"] == "wiki_page"
    assert first["object_attributes"]["slug"] == "Runbook"
    assert first["object_attributes"]["content"] == "# Run"
    assert first["object_attributes"]["url"].endswith("/acme/website/-/wikis/Runbook")
    assert first["wiki"]["path_with_namespace"] == "acme/website.wiki"
