"""Deleting a project, a group or a user takes their access records with them: resource
access tokens stop authenticating, deploy tokens go, a user's keys and emails are freed."""

from __future__ import annotations

from support.calls import call

from fakeservice import FakeService

from .test_keys import RSA


def test_deleting_a_project_or_group_ends_its_tokens(svc: FakeService) -> None:
    body = {"name": "t", "scopes": ["api"]}
    project_token = call(svc, "POST", "/projects/alice%2Fdotfiles/access_tokens", json_body=body)
    group_token = call(svc, "POST", "/groups/acme%2Fsecret-ops/access_tokens", json_body=body)
    deploy = {"name": "d", "scopes": ["read_repository"]}
    call(svc, "POST", "/projects/alice%2Fdotfiles/deploy_tokens", json_body=deploy)
    call(svc, "POST", "/groups/acme%2Fsecret-ops/deploy_tokens", json_body=deploy)
    kept = call(svc, "POST", "/groups/oss/deploy_tokens", json_body=deploy).json()
    assert call(svc, "DELETE", "/projects/alice%2Fdotfiles").status == 202
    assert call(svc, "DELETE", "/groups/acme%2Fsecret-ops").status == 202
    for made in (project_token, group_token):
        assert call(svc, "GET", "/user", token=made.json()["token"]).status == 401
    assert [t["id"] for t in call(svc, "GET", "/deploy_tokens").json()] == [kept["id"]]


def test_deleting_a_user_frees_their_keys_and_emails(svc: FakeService) -> None:
    call(svc, "POST", "/users/carol/keys", json_body={"title": "k", "key": RSA})
    call(svc, "POST", "/users/carol/emails", json_body={"email": "c2@example.com"})
    call(
        svc,
        "POST",
        "/users/carol/gpg_keys",
        json_body={
            "key": "-----BEGIN PGP PUBLIC KEY BLOCK-----\nx\n-----END PGP PUBLIC KEY BLOCK-----"
        },
    )
    assert call(svc, "DELETE", "/users/4").status == 204
    assert call(svc, "POST", "/users/bob/keys", json_body={"title": "k", "key": RSA}).status == 201
    assert (
        call(svc, "POST", "/users/bob/emails", json_body={"email": "c2@example.com"}).status == 201
    )
    assert len(svc.store.tables["gpg_keys"]) == 0
