"""Benchmark of access requests, invitations and user memberships while the instance
holds 100 vs 10,000 projects, each with an access request, an invitation and a
membership of one busy user.

Run: ``python bench/bench_members_pending.py [--sizes 100 10000] [--repeat 100]``;
``make bench`` adds each case's ratio against its 100-project twin (target 1.5) to its
table. Each case lists one project's requests or invitations, or the memberships of a
user with one membership, so its time should not grow with the other projects'.
"""

from __future__ import annotations

from latency import Case, admin_and_group, get_ok, run_sizes, twin_rows
from table import Row

from fakeservice import FakeService
from fakeservice.groups.models import find_group
from fakeservice.members.invites import add_invitation
from fakeservice.members.models import DEVELOPER, PROJECT, add_member
from fakeservice.members.requests import add_request
from fakeservice.projects.models import create_project
from fakeservice.users.models import create_user

ADMIN = "root-token"
SMALL, BIG = 100, 10_000
REPEAT = 200


def build(size: int) -> FakeService:
    svc = admin_and_group(ADMIN)
    store, now = svc.store, svc.clock.now()
    group = find_group(store, "big")
    assert group is not None
    busy = create_user(store, now, username="busy", name="Busy", email="busy@example.com")
    probe = create_user(store, now, username="probe", name="Probe", email="probe@example.com")
    for index in range(size):
        project = create_project(
            store, now, namespace=group, creator_id=1, path=f"p{index}", visibility="public"
        )
        add_request(store, now, kind=PROJECT, source_id=project.id, user_id=busy.id)
        add_invitation(
            store, now, kind=PROJECT, source_id=project.id, email=f"i{index}@example.org",
            access_level=DEVELOPER,
        )  # fmt: skip
        add_member(
            store, now, kind=PROJECT, source_id=project.id, user_id=busy.id, access_level=DEVELOPER
        )
    add_member(store, now, kind=PROJECT, source_id=size, user_id=probe.id, access_level=DEVELOPER)
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    project = f"/projects/big%2Fp{size - 1}"
    return {
        "GET /projects/:id/access_requests": get_ok(svc, f"{project}/access_requests", ADMIN),
        "GET /projects/:id/invitations": get_ok(svc, f"{project}/invitations", ADMIN),
        "GET /users/:id/memberships": get_ok(svc, "/users/probe/memberships", ADMIN),
    }


def bench_rows() -> list[Row]:
    """For ``make bench``: each case with 10,000 projects against its 100-project twin."""
    return twin_rows("members", "projects", build, cases, (SMALL, BIG), REPEAT, 1.5)


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[SMALL, BIG], unit="projects", width=40)


if __name__ == "__main__":
    main()
