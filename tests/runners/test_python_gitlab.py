"""The runners API through python-gitlab, the reference client: register and verify,
list (owned and all), get, save, delete, a runner's jobs, project runners, group
runners and ``gl.user.runners``; in process and over a live server."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService

from .helpers import INSTANCE_TOKEN


def client(svc: FakeService, token: str = "root-token") -> gitlab.Gitlab:
    return gitlab.Gitlab(svc.url, private_token=token, session=svc.requests_session())


def test_register_verify_list_get_save_delete(svc: FakeService) -> None:
    gl = client(svc)
    made = gl.runners.create(
        {"token": INSTANCE_TOKEN, "description": "dk", "tag_list": ["docker", "x"]}
    )
    assert made.id == 2 and made.token
    gl.runners.verify(made.token)
    with pytest.raises(gitlab.GitlabVerifyError) as caught:
        gl.runners.verify("wrong")
    assert caught.value.response_code == 403
    assert [r.id for r in gl.runners_all.list(get_all=True)] == [1, 2]
    assert [r.id for r in gl.runners.all(scope="shared", get_all=True)] == [1, 2]
    runner = gl.runners.get(made.id)
    assert runner.tag_list == ["docker", "x"] and runner.description == "dk"
    runner.description = "renamed"
    runner.tag_list = ["arm"]
    runner.paused = True
    runner.save()
    again = gl.runners.get(made.id)
    assert (again.description, again.tag_list, again.paused, again.active) == (
        "renamed", ["arm"], True, False,
    )  # fmt: skip
    assert [r.id for r in gl.runners_all.list(paused=True, get_all=True)] == [made.id]
    assert [r.id for r in gl.runners_all.list(tag_list=["arm"], get_all=True)] == [made.id]
    again.delete()
    with pytest.raises(gitlab.GitlabGetError) as missing:
        gl.runners.get(made.id)
    assert missing.value.response_code == 404


def test_jobs_project_and_group_runners(svc: FakeService) -> None:
    gl = client(svc)
    svc.runner.set_mode("instant")
    project = gl.projects.get("acme/website")
    created = project.pipelines.create({"ref": "main"})
    jobs = gl.runners.get(1).jobs.list(get_all=True)
    assert sorted(job.name for job in jobs) == ["build", "test"]
    assert {job.pipeline["id"] for job in jobs} == {created.id}
    assert [j.id for j in gl.runners.get(1).jobs.list(sort="asc", get_all=True)] == sorted(
        job.id for job in jobs
    )
    other = gl.projects.get("alice/dotfiles")
    token = gl.http_post(f"/projects/{other.id}/runners/reset_registration_token")["token"]
    own = gl.runners.create({"token": token})
    enabled = project.runners.create({"runner_id": own.id})
    assert enabled.id == own.id
    assert [r.id for r in project.runners.list(get_all=True)] == [1, own.id]
    project.runners.delete(own.id)
    assert [r.id for r in project.runners.list(get_all=True)] == [1]
    group = gl.groups.get("acme")
    assert [r.id for r in group.runners.list(get_all=True)] == [1]


def test_owned_runners_and_user_runners(svc: FakeService) -> None:
    alice = client(svc, "alice-token")
    alice.auth()
    assert alice.user is not None
    group = alice.groups.get("acme")
    created = alice.user.runners.create({"runner_type": "group_type", "group_id": group.id})
    assert created.token.startswith("glrt-")
    assert [r.id for r in alice.runners.list(get_all=True)] == [created.id]
    assert alice.runners.list(status="never_contacted", get_all=True)[0].id == created.id
    with pytest.raises(gitlab.GitlabListError) as caught:
        alice.runners_all.list(get_all=True)
    assert caught.value.response_code == 403


def test_over_a_live_server(served: tuple[FakeService, str]) -> None:
    _, url = served
    gl = gitlab.Gitlab(url, private_token="root-token")
    made = gl.runners.create({"token": INSTANCE_TOKEN, "description": "live"})
    assert gl.runners.get(made.id).description == "live"
    assert [r.id for r in gl.runners_all.list(get_all=True)] == [1, made.id]
