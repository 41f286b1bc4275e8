"""Registering runners with registration tokens, the runner's own token (verify, delete,
new token), ``POST /user/runners`` and registration-token resets."""

from __future__ import annotations

from support.calls import call

from fakeservice import FakeService

from .helpers import INSTANCE_TOKEN, WEBSITE, group_token, project_token, register


def test_register_with_the_instance_token(svc: FakeService) -> None:
    made = register(
        svc,
        description="docker",
        tag_list="docker,linux",
        run_untagged=False,
        locked=True,
        access_level="ref_protected",
        maximum_timeout=3600,
        maintenance_note="rack 4",
        info={"name": "gitlab-runner", "version": "17.2.0", "platform": "linux"},
    )
    assert made.status == 201
    answer = made.json()
    assert set(answer) == {"id", "token", "token_expires_at"}
    assert answer["id"] == 2 and answer["token_expires_at"] is None
    assert len(answer["token"]) == 20 and not answer["token"].startswith("glrt-")
    got = call(svc, "GET", f"/runners/{answer['id']}").json()
    assert {k: got[k] for k in ("description", "tag_list", "run_untagged", "locked")} == {
        "description": "docker",
        "tag_list": ["docker", "linux"],
        "run_untagged": False,
        "locked": True,
    }
    assert got["access_level"] == "ref_protected" and got["maximum_timeout"] == 3600
    assert got["maintenance_note"] == "rack 4"
    assert (got["name"], got["version"], got["platform"]) == ("gitlab-runner", "17.2.0", "linux")
    assert got["runner_type"] == "instance_type" and got["is_shared"] is True
    assert got["contacted_at"] == "2026-01-01T09:00:00Z" and got["status"] == "online"


def test_register_with_group_and_project_tokens(svc: FakeService) -> None:
    group = register(svc, group_token(svc), description="acme runner").json()
    detail = call(svc, "GET", f"/runners/{group['id']}").json()
    assert detail["runner_type"] == "group_type" and detail["projects"] == []
    acme = call(svc, "GET", "/groups/acme").json()
    assert detail["groups"] == [
        {"id": acme["id"], "web_url": acme["web_url"], "name": acme["name"]}
    ]
    project = register(svc, project_token(svc), paused=True).json()
    detail = call(svc, "GET", f"/runners/{project['id']}").json()
    assert detail["runner_type"] == "project_type" and detail["paused"] is True
    assert detail["active"] is False
    assert [p["path_with_namespace"] for p in detail["projects"]] == ["acme/website"]


def test_bad_registration_tokens_are_403_and_change_nothing(svc: FakeService) -> None:
    before = call(svc, "GET", "/runners/all").json()
    for token in ("nope", "GR1348941000000009999", "GR1348941p00000009999", ""):
        refused = register(svc, token)
        assert (refused.status, refused.json()) == (403, {"message": "403 Forbidden"})
    missing = call(svc, "POST", "/runners", token=None, json_body={})
    assert (missing.status, missing.json()) == (400, {"error": "token is missing"})
    both = register(svc, active=True, paused=False)
    assert both.json() == {"error": "active, paused are mutually exclusive"}
    invalid = register(svc, maximum_timeout=60, run_untagged=False, maintenance_note="x" * 1025)
    assert invalid.status == 400
    assert invalid.json() == {
        "message": {
            "maximum_timeout": ["needs to be at least 10 minutes"],
            "maintenance_note": ["is too long (maximum is 1024 characters)"],
            "tags_list": ["can not be empty when runner is not allowed to pick untagged jobs"],
        }
    }
    assert call(svc, "GET", "/runners/all").json() == before


def test_verify_reset_and_delete_with_the_runners_token(svc: FakeService) -> None:
    made = register(svc).json()
    svc.clock.advance(hours=3)
    assert call(svc, "GET", f"/runners/{made['id']}").json()["status"] == "offline"
    verified = call(svc, "POST", "/runners/verify", token=None, json_body={"token": made["token"]})
    assert (verified.status, verified.json()) == (200, made)
    assert call(svc, "GET", f"/runners/{made['id']}").json()["status"] == "online"
    reset = call(
        svc, "POST", "/runners/reset_authentication_token", token=None,
        json_body={"token": made["token"]},
    )  # fmt: skip
    assert reset.status == 201 and set(reset.json()) == {"token", "token_expires_at"}
    new = reset.json()["token"]
    assert new != made["token"]
    old = call(svc, "POST", "/runners/verify", token=None, json_body={"token": made["token"]})
    assert (old.status, old.json()) == (403, {"message": "403 Forbidden"})
    gone = call(svc, "DELETE", "/runners", token=None, json_body={"token": new})
    assert gone.status == 204
    assert call(svc, "GET", f"/runners/{made['id']}").json() == {"message": "404 Runner Not Found"}
    again = call(svc, "DELETE", "/runners", token=None, json_body={"token": new})
    assert again.status == 403


def test_reset_registration_tokens(svc: FakeService) -> None:
    instance = call(svc, "POST", "/runners/reset_registration_token")
    assert instance.status == 201
    token = instance.json()["token"]
    assert token.startswith("GR1348941") and token != INSTANCE_TOKEN
    assert register(svc).status == 403
    assert register(svc, token).status == 201
    assert call(svc, "POST", "/runners/reset_registration_token", token="alice-token").status == 403
    old_group = group_token(svc)
    group = call(svc, "POST", "/groups/acme/runners/reset_registration_token", token="alice-token")
    assert group.status == 201 and group.json()["token"] == group_token(svc) != old_group
    assert register(svc, old_group).status == 403
    assert register(svc, group.json()["token"]).status == 201
    bob = call(svc, "POST", "/groups/acme/runners/reset_registration_token", token="bob-read-token")
    assert bob.status == 403
    first = project_token(svc)
    second = project_token(svc)
    assert first != second
    assert register(svc, first).status == 403 and register(svc, second).status == 201
    carol = call(
        svc, "POST", "/projects/acme%2Fplatform%2Fapi/runners/reset_registration_token",
        token="carol-token",
    )  # fmt: skip
    assert carol.status == 403
    hidden = call(
        svc,
        "POST",
        "/projects/acme%2Fsecret-ops%2Fvault/runners/reset_registration_token",
        token="carol-token",
    )
    assert hidden.json() == {"message": "404 Project Not Found"}


def test_user_runners(svc: FakeService) -> None:
    made = call(
        svc, "POST", "/user/runners", token="alice-token",
        json_body={"runner_type": "group_type", "group_id": group_id(svc), "tag_list": ["a"]},
    )  # fmt: skip
    assert made.status == 201
    assert made.json()["token"].startswith("glrt-")
    got = call(svc, "GET", f"/runners/{made.json()['id']}", token="alice-token").json()
    assert got["runner_type"] == "group_type" and got["status"] == "never_contacted"
    assert got["tag_list"] == ["a"] and got["contacted_at"] is None
    instance = call(
        svc,
        "POST",
        "/user/runners",
        token="alice-token",
        json_body={"runner_type": "instance_type"},
    )
    assert (instance.status, instance.json()) == (403, {"message": "403 Forbidden"})
    missing = call(
        svc, "POST", "/user/runners", token="alice-token", json_body={"runner_type": "group_type"}
    )
    assert (missing.status, missing.json()) == (400, {"error": "group_id is missing"})
    carol = call(
        svc, "POST", "/user/runners", token="carol-token",
        json_body={"runner_type": "project_type", "project_id": project_id(svc, "acme%2Fplatform%2Fapi")},
    )  # fmt: skip
    assert carol.status == 403
    bad = call(svc, "POST", "/user/runners", json_body={"runner_type": "specific"})
    assert bad.json() == {"error": "runner_type does not have a valid value"}
    admin = call(
        svc, "POST", "/user/runners", json_body={"runner_type": "project_type", "project_id": 1}
    )
    assert admin.status == 201
    reset = call(svc, "POST", f"/runners/{admin.json()['id']}/reset_authentication_token")
    assert reset.status == 201 and reset.json()["token"].startswith("glrt-")
    assert reset.json()["token"] != admin.json()["token"]


def group_id(svc: FakeService, path: str = "acme") -> int:
    return int(call(svc, "GET", f"/groups/{path}").json()["id"])


def project_id(svc: FakeService, path: str) -> int:
    return int(call(svc, "GET", f"/projects/{path}").json()["id"])


def test_project_registration_token_names_the_project(svc: FakeService) -> None:
    token = f"GR1348941p{project_id(svc, 'acme%2Fwebsite'):011d}"
    made = register(svc, token).json()
    detail = call(svc, "GET", f"/runners/{made['id']}").json()
    website = call(svc, "GET", WEBSITE).json()
    assert detail["projects"] == [
        {
            k: website[k]
            for k in ("id", "name", "name_with_namespace", "path", "path_with_namespace")
        }
    ]
    assert register(svc, f"GR1348941p{99999:011d}").status == 403
