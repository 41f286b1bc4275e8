"""One GPG key or email by id: the caller's own (``/user/gpg_keys/:id``,
``/user/emails/:id``) and a user's GPG key (``/users/:id/gpg_keys/:id``, public), over raw
HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
from support.calls import call

from fakeservice import FakeService

from .test_keys import GPG


def test_one_gpg_key(svc: FakeService) -> None:
    made = call(svc, "POST", "/user/gpg_keys", token="alice-token", json_body={"key": GPG}).json()
    own = call(svc, "GET", f"/user/gpg_keys/{made['id']}", token="alice-token")
    assert (own.status, own.json()) == (200, made)
    assert (made["key"], made["created_at"]) == (GPG, "2026-01-01T09:00:00Z")
    anyone = call(svc, "GET", f"/users/2/gpg_keys/{made['id']}", token=None)
    assert (anyone.status, anyone.json()) == (200, made)
    # another user's key is not under /user, nor under another user
    assert call(svc, "GET", f"/user/gpg_keys/{made['id']}", token="carol-token").status == 404
    assert call(svc, "GET", f"/users/4/gpg_keys/{made['id']}", token=None).status == 404


def test_one_email(svc: FakeService) -> None:
    made = call(
        svc, "POST", "/user/emails", token="alice-token", json_body={"email": "a9@example.com"}
    )
    got = call(svc, "GET", f"/user/emails/{made.json()['id']}", token="alice-token")
    assert (got.status, got.json()) == (
        200,
        {"id": made.json()["id"], "email": "a9@example.com", "confirmed_at": None},
    )
    other = call(svc, "GET", f"/user/emails/{made.json()['id']}", token="carol-token")
    assert (other.status, other.json()) == (404, {"message": "404 Email Not Found"})


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="alice-token", session=svc.requests_session()
    )
    gl.auth()
    assert gl.user is not None
    gpg = gl.user.gpgkeys.create({"key": GPG})
    assert gl.user.gpgkeys.get(gpg.id).key == GPG
    email = gl.user.emails.create({"email": "a8@example.com"})
    assert gl.user.emails.get(email.id).email == "a8@example.com"
    admin = gitlab.Gitlab(
        "http://fakeservice.test", private_token="root-token", session=svc.requests_session()
    )
    assert admin.users.get(2).gpgkeys.get(gpg.id).id == gpg.id


def test_administrators_delete_a_users_gpg_key_and_email(svc: FakeService) -> None:
    gpg = call(svc, "POST", "/users/2/gpg_keys", json_body={"key": GPG}).json()
    email = call(svc, "POST", "/users/2/emails", json_body={"email": "a7@example.com"}).json()
    assert call(svc, "DELETE", f"/users/2/gpg_keys/{gpg['id']}", token="alice-token").status == 403
    assert call(svc, "DELETE", f"/users/2/gpg_keys/{gpg['id']}").status == 204
    assert call(svc, "DELETE", f"/users/2/emails/{email['id']}").status == 204
    assert call(svc, "GET", "/users/2/gpg_keys", token=None).json() == []
    assert [e["email"] for e in call(svc, "GET", "/users/2/emails").json()] == []
