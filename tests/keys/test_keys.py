"""Users' SSH keys (fingerprints as ssh-keygen prints them, unique on the instance), GPG
keys and emails: the caller's own under /user, anyone's under /users/:id (administrators
write), the model's messages, and python-gitlab's managers."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import call

from fakeservice import FakeService

ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHMVCcgsbJBbZvxXYQMnFluL8Fh0yCp29E2BDSkdY4+d me@x"
RSA = (
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC/nVDDQbSa6mSHZ4lJYLPcc2emeWNqho1HSFrR4JPdUxBjS1KI/3Yn"
    "wLIBqHMAXNnMTRU7ZIIrtiAsHK3lB/EaKa8M2tbeRdIiyvaQZMIGjqLU/YkdGOjMo9VnlNeZSvVCCTWQVIDTcFJN33rw"
    "K/MTC8fU6IgZEC9dzN0IO2hoRQ== ci@x"
)
# as printed by ssh-keygen -l (and -E md5)
ED25519_SHA256 = "SHA256:NPqY7xftvxlztjs8EWj3VOpAhYVsrr1Q0TW+MljFb98"
RSA_SHA256 = "SHA256:AL2TWhokQM/mHcRycJcAr/0RjdtRTI/RGh4sKs6hi48"
RSA_MD5 = "2d:b0:20:b8:4b:f4:51:ed:1a:51:86:29:9c:c1:72:7b"
GPG = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBF...\n-----END PGP PUBLIC KEY BLOCK-----\n"
KEY_FIELDS = {"id", "title", "created_at", "expires_at", "last_used_at", "key", "usage_type"}


def add_key(svc: FakeService, token: str = "alice-token", **body: Any) -> Any:
    return call(
        svc,
        "POST",
        "/user/keys",
        token=token,
        json_body={"title": "laptop", "key": ED25519, **body},
    )


def test_own_ssh_keys_add_list_get_delete(svc: FakeService) -> None:
    response = add_key(svc, expires_at="2026-06-01T00:00:00Z", usage_type="auth")
    assert response.status == 201
    made = response.json()
    assert set(made) == KEY_FIELDS
    assert {k: made[k] for k in ("title", "key", "expires_at", "usage_type", "created_at")} == {
        "title": "laptop",
        "key": ED25519,
        "expires_at": "2026-06-01T00:00:00Z",
        "usage_type": "auth",
        "created_at": "2026-01-01T09:00:00Z",
    }
    assert call(svc, "GET", "/user/keys", token="alice-token").json() == [made]
    assert call(svc, "GET", f"/user/keys/{made['id']}", token="alice-token").json() == made
    # anyone reads a user's keys; another user's key is not found under /user
    assert call(svc, "GET", "/users/alice/keys", token=None).json() == [made]
    assert call(svc, "GET", f"/users/2/keys/{made['id']}", token=None).json() == made
    missing = call(svc, "GET", f"/user/keys/{made['id']}", token="carol-token")
    assert (missing.status, missing.json()) == (404, {"message": "404 Key Not Found"})
    assert call(svc, "DELETE", f"/user/keys/{made['id']}", token="carol-token").status == 404
    assert call(svc, "DELETE", f"/user/keys/{made['id']}", token="alice-token").status == 204
    assert call(svc, "GET", "/user/keys", token="alice-token").json() == []


def test_ssh_key_validation_and_uniqueness(svc: FakeService) -> None:
    add_key(svc)
    before = svc.snapshot()
    for body, expected in (
        (
            {"key": "ssh-rsa AAAA"},
            {"key": ["is invalid"], "fingerprint_sha256": ["cannot be generated"]},
        ),
        (
            {"key": "ssh-rsa " + ED25519.split()[1]},
            {"key": ["is invalid"], "fingerprint_sha256": ["cannot be generated"]},
        ),
        (
            {"title": " "},
            {"title": ["can't be blank"], "fingerprint_sha256": ["has already been taken"]},
        ),
        ({"key": RSA, "expires_at": "2025-01-01T00:00:00Z"}, {"key": ["has expired"]}),
        (
            {"key": None, "title": None},
            {
                "title": ["can't be blank"],
                "key": ["can't be blank"],
                "fingerprint_sha256": ["cannot be generated"],
            },
        ),
    ):
        response = add_key(svc, token="carol-token", **body)
        assert (response.status, response.json()) == (400, {"message": expected})
    wrong = add_key(svc, usage_type="login")
    assert (wrong.status, wrong.json()) == (
        400,
        {"error": "usage_type does not have a valid value"},
    )
    missing = call(svc, "POST", "/user/keys", token="carol-token", json_body={"title": "t"})
    assert (missing.status, missing.json()) == (400, {"error": "key is missing"})
    assert svc.snapshot() == before


def test_fingerprint_lookup_and_administrators(svc: FakeService) -> None:
    added = call(svc, "POST", "/users/carol/keys", json_body={"title": "ci", "key": RSA})
    assert added.status == 201
    for fingerprint in (RSA_SHA256, RSA_MD5):
        found = call(svc, "GET", "/keys", query={"fingerprint": fingerprint}).json()
        assert (found["id"], found["user"]["username"]) == (added.json()["id"], "carol")
    ed = add_key(svc).json()
    assert call(svc, "GET", "/keys", query={"fingerprint": ED25519_SHA256}).json()["id"] == ed["id"]
    assert call(svc, "GET", f"/keys/{ed['id']}").json()["user"]["username"] == "alice"
    assert call(svc, "GET", "/keys", query={"fingerprint": "SHA256:nope"}).status == 404
    assert call(svc, "GET", f"/keys/{ed['id']}", token="alice-token").status == 403
    refused = call(
        svc, "POST", "/users/carol/keys", token="alice-token", json_body={"title": "x", "key": RSA}
    )
    assert refused.status == 403
    assert call(svc, "GET", "/users/999/keys").json() == {"message": "404 User Not Found"}
    gone = f"/users/carol/keys/{added.json()['id']}"
    assert call(svc, "DELETE", gone, token="alice-token").status == 403
    assert call(svc, "DELETE", gone).status == 204


def test_gpg_keys(svc: FakeService) -> None:
    made = call(svc, "POST", "/user/gpg_keys", token="alice-token", json_body={"key": GPG})
    assert made.status == 201
    assert set(made.json()) == {"id", "key", "created_at"}
    assert call(svc, "GET", "/users/2/gpg_keys", token=None).json() == [made.json()]
    bad = call(svc, "POST", "/user/gpg_keys", token="alice-token", json_body={"key": "not pgp"})
    assert (bad.status, bad.json()) == (400, {"message": {"key": ["is invalid"]}})
    assert (
        call(svc, "DELETE", f"/user/gpg_keys/{made.json()['id']}", token="alice-token").status
        == 204
    )
    missing = call(svc, "GET", f"/user/gpg_keys/{made.json()['id']}", token="alice-token")
    assert missing.json() == {"message": "404 GPG Key Not Found"}


def test_emails_with_confirmation(svc: FakeService) -> None:
    own = call(
        svc, "POST", "/user/emails", token="alice-token", json_body={"email": "a2@example.com"}
    )
    assert (own.status, own.json()) == (
        201,
        {"id": own.json()["id"], "email": "a2@example.com", "confirmed_at": None},
    )
    skipped = call(
        svc,
        "POST",
        "/users/2/emails",
        json_body={"email": "a3@example.com", "skip_confirmation": True},
    )
    assert skipped.json()["confirmed_at"] == "2026-01-01T09:00:00Z"
    # skip_confirmation is for administrators only
    unconfirmed = call(
        svc,
        "POST",
        "/user/emails",
        token="alice-token",
        json_body={"email": "a4@example.com", "skip_confirmation": True},
    )
    assert unconfirmed.json()["confirmed_at"] is None
    assert [e["email"] for e in call(svc, "GET", "/user/emails", token="alice-token").json()] == [
        "a2@example.com", "a3@example.com", "a4@example.com",
    ]  # fmt: skip
    for email, expected in (
        ("A2@example.com", "has already been taken"),
        ("bob@example.com", "has already been taken"),  # another user's primary email
        ("nope", "is invalid"),
    ):
        response = call(
            svc, "POST", "/user/emails", token="carol-token", json_body={"email": email}
        )
        assert (response.status, response.json()) == (400, {"message": {"email": [expected]}})
    assert call(svc, "GET", "/users/2/emails", token="alice-token").status == 403
    assert call(svc, "GET", "/users/2/emails").status == 200
    assert (
        call(svc, "DELETE", f"/user/emails/{own.json()['id']}", token="alice-token").status == 204
    )
    assert call(svc, "GET", f"/user/emails/{own.json()['id']}", token="alice-token").json() == {
        "message": "404 Email Not Found"
    }


def test_python_gitlab(served: tuple[FakeService, str]) -> None:
    _, url = served
    gl = gitlab.Gitlab(url, private_token="alice-token")
    gl.auth()
    assert gl.user is not None
    key = gl.user.keys.create({"title": "laptop", "key": ED25519})
    assert [k.title for k in gl.user.keys.list(get_all=True)] == ["laptop"]
    assert gl.user.keys.get(key.id).key == ED25519
    admin = gitlab.Gitlab(url, private_token="root-token")
    carol = admin.users.get(4)
    carol.keys.create({"title": "ci", "key": RSA, "usage_type": "signing"})
    assert [(k.title, k.usage_type) for k in carol.keys.list(get_all=True)] == [("ci", "signing")]
    assert admin.keys.get(fingerprint=RSA_SHA256).user["id"] == 4
    gpg = carol.gpgkeys.create({"key": GPG})
    assert [k.id for k in carol.gpgkeys.list(get_all=True)] == [gpg.id]
    email = carol.emails.create({"email": "c2@example.com", "skip_confirmation": True})
    assert email.confirmed_at is not None
    assert [e.email for e in carol.emails.list(get_all=True)] == ["c2@example.com"]
    gl.user.emails.create({"email": "a2@example.com"})
    assert [e.confirmed_at for e in gl.user.emails.list(get_all=True)] == [None]
    key.delete()
    assert gl.user.keys.list(get_all=True) == []
