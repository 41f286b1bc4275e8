"""Benchmark of the access and identity endpoints with 1,000 vs 20,000 users, each with a
personal access token, an SSH key and a secondary email (one project per ten users, each
with a project access token, a deploy token and a deploy key).

Run: ``python bench/bench_access.py [--sizes 1000 20000] [--repeat 100]``.
Prints a table of median and 95th-percentile latencies in milliseconds. Each case touches
a fixed amount of state (one user's records, one project's, a page), so its time should
not grow with the size.
"""

from __future__ import annotations

import base64
import hashlib
import struct

from latency import Case, get_ok, run_sizes

from fakeservice import FakeService
from fakeservice.access_tokens.models import create_resource_token
from fakeservice.deploy.tokens import PROJECT, create_deploy_token
from fakeservice.groups.models import find_group
from fakeservice.keys.deploy import add_deploy_key
from fakeservice.keys.models import add_email, add_ssh_key
from fakeservice.keys.ssh import parse
from fakeservice.projects.models import create_project
from fakeservice.tokens.models import issue_token
from fakeservice.users.models import create_user

ADMIN = "root-token"
USER = "last-token"
PER_PROJECT = 10


def ssh_key(index: int) -> str:
    name = b"ssh-ed25519"
    blob = struct.pack(">I", len(name)) + name + struct.pack(">I", 32)
    blob += hashlib.sha256(str(index).encode()).digest()
    return f"ssh-ed25519 {base64.b64encode(blob).decode()} key{index}"


def build(size: int) -> FakeService:
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ADMIN}]}],
            "groups": [{"path": "big", "visibility": "public"}],
        }
    )
    store, now = svc.store, svc.clock.now()
    group = find_group(store, "big")
    assert group is not None
    for index in range(size):
        user = create_user(
            store, now, username=f"u{index}", name=f"U {index}", email=f"u{index}@example.com"
        )
        secret = USER if index == size - 1 else None
        issue_token(store, now, kind="personal", user_id=user.id, name="t", scopes=["api"],
                    token=secret)  # fmt: skip
        add_ssh_key(store, now, user_id=user.id, title="k", key=ssh_key(index))
        add_email(store, now, user_id=user.id, email=f"u{index}@mail.example", confirmed=True)
        if index % PER_PROJECT == 0:
            project = create_project(
                store, now, namespace=group, creator_id=1, path=f"p{index}", visibility="public"
            )
            create_resource_token(
                store, now, kind="project", resource_id=project.id, name="bot", scopes=["api"],
                access_level=40, expires_at=None,
            )  # fmt: skip
            create_deploy_token(store, now, owner_kind=PROJECT, owner_id=project.id, name="d",
                                scopes=["read_repository"])  # fmt: skip
            add_deploy_key(store, now, project.id, title="d", key=ssh_key(-index - 1),
                           can_push=False, expires_at=None)  # fmt: skip
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    last_project = f"big%2Fp{(size - 1) // PER_PROJECT * PER_PROJECT}"
    fingerprint = parse(ssh_key(size // 2))
    assert fingerprint is not None

    def get(path: str, token: str = ADMIN) -> Case:
        return get_ok(svc, path, token)

    return {
        "GET /personal_access_tokens (own)": get("/personal_access_tokens", USER),
        "GET /personal_access_tokens (admin, page 1)": get("/personal_access_tokens"),
        "GET /personal_access_tokens?user_id=": get(f"/personal_access_tokens?user_id={size}"),
        "GET /projects/:id/access_tokens": get(f"/projects/{last_project}/access_tokens"),
        "GET /projects/:id/deploy_tokens": get(f"/projects/{last_project}/deploy_tokens"),
        "GET /projects/:id/deploy_keys": get(f"/projects/{last_project}/deploy_keys"),
        "GET /deploy_keys (admin, page 1)": get("/deploy_keys"),
        "GET /user/keys": get("/user/keys", USER),
        "GET /keys?fingerprint=SHA256:": get(
            "/keys?fingerprint=" + fingerprint.fingerprint_sha256.replace("+", "%2B")
        ),
        "GET /user/emails": get("/user/emails", USER),
    }


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[1_000, 20_000], unit="users", width=44)


if __name__ == "__main__":
    main()
