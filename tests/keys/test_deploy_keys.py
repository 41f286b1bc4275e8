"""Deploy keys: a project's list, get, add (a known deploy key is linked, a user's key is
refused), update, delete and enable for Maintainers; the instance list for administrators."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import call

from fakeservice import FakeService

from .test_keys import ED25519, RSA, RSA_MD5, RSA_SHA256

WEBSITE = "/projects/acme%2Fwebsite"
DOTFILES = "/projects/alice%2Fdotfiles"


def add(svc: FakeService, path: str = WEBSITE, token: str = "alice-token", **body: Any) -> Any:
    payload = {"title": "deployer", "key": RSA, **body}
    return call(svc, "POST", f"{path}/deploy_keys", token=token, json_body=payload)


def test_add_list_get_update_delete(svc: FakeService) -> None:
    response = add(svc, can_push=True)
    assert response.status == 201
    made = response.json()
    assert {
        k: made[k] for k in ("title", "key", "fingerprint", "fingerprint_sha256", "can_push")
    } == {
        "title": "deployer",
        "key": RSA,
        "fingerprint": RSA_MD5,
        "fingerprint_sha256": RSA_SHA256,
        "can_push": True,
    }
    base = f"{WEBSITE}/deploy_keys"
    assert call(svc, "GET", base, token="alice-token").json() == [made]
    assert call(svc, "GET", f"{base}/{made['id']}", token="alice-token").json() == made
    changed = call(
        svc,
        "PUT",
        f"{base}/{made['id']}",
        token="alice-token",
        json_body={"title": "ci", "can_push": False},
    )
    assert (changed.json()["title"], changed.json()["can_push"]) == ("ci", False)
    empty = call(svc, "PUT", f"{base}/{made['id']}", token="alice-token", json_body={})
    assert empty.json() == {
        "error": "title, can_push are missing, at least one parameter must be provided"
    }
    # the same key on a second project is the same deploy key, linked
    again = add(svc, DOTFILES, can_push=True).json()
    assert (again["id"], again["can_push"]) == (made["id"], True)
    listed = call(svc, "GET", "/deploy_keys").json()
    assert [
        (
            k["id"],
            [p["id"] for p in k["projects_with_write_access"]],
            [p["path_with_namespace"] for p in k["projects_with_readonly_access"]],
        )
        for k in listed
    ] == [(made["id"], [again_project_id(svc)], ["acme/website"])]
    assert call(svc, "DELETE", f"{base}/{made['id']}", token="alice-token").status == 204
    assert call(svc, "GET", f"{base}/{made['id']}", token="alice-token").json() == {
        "message": "404 Deploy key Not Found"
    }
    assert len(call(svc, "GET", "/deploy_keys").json()) == 1  # still on dotfiles
    call(svc, "DELETE", f"{DOTFILES}/deploy_keys/{made['id']}", token="alice-token")
    assert call(svc, "GET", "/deploy_keys").json() == []


def again_project_id(svc: FakeService) -> int:
    return int(call(svc, "GET", DOTFILES).json()["id"])


def test_enable_errors_and_roles(svc: FakeService) -> None:
    made = add(svc).json()
    enabled = call(svc, "POST", f"{DOTFILES}/deploy_keys/{made['id']}/enable", token="alice-token")
    assert (enabled.status, enabled.json()["id"]) == (201, made["id"])
    assert [
        k["can_push"]
        for k in call(svc, "GET", f"{DOTFILES}/deploy_keys", token="alice-token").json()
    ] == [False]
    assert (
        call(svc, "POST", f"{DOTFILES}/deploy_keys/999/enable", token="alice-token").status == 404
    )
    # a user's SSH key cannot become a deploy key
    call(
        svc, "POST", "/user/keys", token="carol-token", json_body={"title": "mine", "key": ED25519}
    )
    before = svc.snapshot()
    taken = add(svc, key=ED25519)
    assert (taken.status, taken.json()) == (
        400,
        {"message": {"fingerprint_sha256": ["has already been taken"]}},
    )
    bad = add(svc, key="ssh-rsa nope")
    assert bad.json() == {
        "message": {"key": ["is invalid"], "fingerprint_sha256": ["cannot be generated"]}
    }
    assert svc.snapshot() == before
    assert add(svc, token="bob-read-token").status == 403
    assert call(svc, "GET", f"{WEBSITE}/deploy_keys", token="carol-token").status == 403
    assert call(svc, "GET", "/deploy_keys", token="alice-token").status == 403


def test_deleting_a_project_drops_its_keys(svc: FakeService) -> None:
    add(svc, DOTFILES)
    assert call(svc, "DELETE", DOTFILES).status == 202
    assert call(svc, "GET", "/deploy_keys").json() == []


def test_python_gitlab(served: tuple[FakeService, str]) -> None:
    _, url = served
    gl = gitlab.Gitlab(url, private_token="alice-token")
    project = gl.projects.get("acme/website")
    key = project.keys.create({"title": "deployer", "key": RSA, "can_push": True})
    assert [k.title for k in project.keys.list(get_all=True)] == ["deployer"]
    fetched = project.keys.get(key.id)
    fetched.title = "renamed"
    fetched.save()
    assert project.keys.get(key.id).title == "renamed"
    dotfiles = gl.projects.get("alice/dotfiles")
    dotfiles.keys.enable(key.id)
    assert [k.id for k in dotfiles.keys.list(get_all=True)] == [key.id]
    admin = gitlab.Gitlab(url, private_token="root-token")
    assert [k.id for k in admin.deploykeys.list(get_all=True)] == [key.id]
    project.keys.delete(key.id)
    assert project.keys.list(get_all=True) == []
