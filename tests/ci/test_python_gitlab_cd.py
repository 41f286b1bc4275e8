"""The reference client (python-gitlab) against a live server, on the CI/CD endpoints
outside the spec: ``project.triggers`` CRUD and ``project.trigger_pipeline`` (a
``trigger`` pipeline with the variables; a bad token raises the client's create error with
the service's 404), ``project.resource_groups`` (list, get, save ``process_mode``,
``upcoming_jobs``)."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService

from .ci_support import commit_file, job_named


def test_trigger_token_lifecycle(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    _svc, gl = live
    url = gl.url
    alice = gitlab.Gitlab(url, private_token="alice-token").projects.get("acme/pipes")
    root = gitlab.Gitlab(url, private_token="root-token").projects.get("acme/pipes")
    trigger = alice.triggers.create({"description": "deploy bot"})
    assert trigger.token.startswith("glptt-") and trigger.owner["username"] == "alice"
    assert trigger.last_used is None and trigger.expires_at is None

    trigger.description = "release bot"
    trigger.save()
    fetched = alice.triggers.get(trigger.id)
    assert fetched.description == "release bot" and fetched.token == trigger.token
    assert [t.description for t in root.triggers.list(get_all=True)] == ["release bot"]
    assert root.triggers.get(trigger.id).token == trigger.token[6:10]

    fetched.delete()
    assert alice.triggers.list(get_all=True) == []
    with pytest.raises(gitlab.GitlabGetError) as caught:
        alice.triggers.get(trigger.id)
    assert caught.value.response_code == 404


def test_trigger_pipeline(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    _svc, gl = live
    url = gl.url
    project = gitlab.Gitlab(url, private_token="root-token").projects.get("acme/pipes")
    trigger = project.triggers.create({"description": "ci bot"})
    pipeline = project.trigger_pipeline("main", trigger.token, variables={"MODE": "fast"})
    assert (pipeline.source, pipeline.ref) == ("trigger", "main")
    assert [(v.key, v.value) for v in pipeline.variables.list(get_all=True)] == [("MODE", "fast")]
    assert project.triggers.get(trigger.id).last_used is not None
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        project.trigger_pipeline("main", "glptt-wrong")
    assert caught.value.response_code == 404
    with pytest.raises(gitlab.GitlabCreateError) as missing:
        project.trigger_pipeline("no-such-branch", trigger.token)
    assert missing.value.response_code == 400
    assert "Reference not found" in str(missing.value.error_message)


def test_resource_groups(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    svc, gl = live
    url = gl.url
    commit_file(
        svc,
        ".gitlab-ci.yml",
        "deploy:\n  script: [deploy]\n  resource_group: production\n",
    )
    project = gitlab.Gitlab(url, private_token="root-token").projects.get("acme/pipes")
    first = project.pipelines.create({"ref": "main"})
    second = project.pipelines.create({"ref": "main"})
    waiting = job_named(svc, second.id, "deploy")
    assert waiting["status"] == "waiting_for_resource"
    group = project.resource_groups.get("production")
    assert (group.key, group.process_mode) == ("production", "unordered")
    assert [j.id for j in group.upcoming_jobs.list(get_all=True)] == [waiting["id"]]
    group.process_mode = "oldest_first"
    group.save()
    assert project.resource_groups.get("production").process_mode == "oldest_first"
    listed = project.resource_groups.list(get_all=True)
    assert [(g.key, g.process_mode) for g in listed] == [("production", "oldest_first")]
    svc.runner.finish(job_named(svc, first.id, "deploy")["id"])
    assert project.jobs.get(waiting["id"]).status == "pending"
    with pytest.raises(gitlab.GitlabGetError) as caught:
        project.resource_groups.get("staging")
    assert caught.value.response_code == 404
