"""Benchmark of the project life cycle reads: one upstream project with 100 vs 10,000
forks (each in its own user namespace), and a private project shared with a group while
as many other shares exist.

Run: ``python bench/bench_lifecycle.py [--sizes 100 10000] [--repeat 100]``.
Prints a table of median and 95th-percentile latencies in milliseconds. A page of forks
comes from the per-upstream index and a share is read from the project it is on, so a
case's time should not grow with the number of forks or shares.
"""

from __future__ import annotations

from latency import Case, get_ok, run_sizes

from fakeservice import FakeService
from fakeservice.forks.models import link
from fakeservice.groups.models import create_group, find_group, namespaces
from fakeservice.members.models import NAMESPACE, add_member
from fakeservice.projects.models import create_project, find_project
from fakeservice.sharing.models import share
from fakeservice.users.models import create_user

ADMIN = "root-token"
MEMBER = "member-token"


def build(size: int) -> FakeService:
    svc = FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": ADMIN}]},
                {"username": "member", "tokens": [{"token": MEMBER}]},
            ],
            "groups": [
                {"path": "up", "visibility": "public"},
                {"path": "team", "visibility": "private"},
            ],
            "projects": [
                {"path": "up/app", "visibility": "public", "files": {"README.md": "# App\n"}},
                {"path": "up/vault", "visibility": "private"},
            ],
        }
    )
    store, now = svc.store, svc.clock.now()
    upstream = find_project(store, "up/app")
    vault = find_project(store, "up/vault")
    team = find_group(store, "team")
    assert upstream is not None and vault is not None and team is not None
    add_member(store, now, kind=NAMESPACE, source_id=team.id, user_id=2, access_level=30)
    for index in range(size):
        user = create_user(
            store, now, username=f"f{index}", name=f"F {index}", email=f"f{index}@x.test"
        )
        ns = namespaces(store).rows[user.namespace_id]
        fork = create_project(
            store, now, namespace=ns, creator_id=user.id, path="app", visibility="public"
        )
        link(store, fork, upstream)
        other = create_group(store, now, name=f"g{index}", path=f"g{index}", visibility="public")
        private = create_project(
            store, now, namespace=other, creator_id=1, path="p", visibility="private"
        )
        share(store, store.tables["projects"], private, team, 20, None)
    share(store, store.tables["projects"], vault, team, 20, None)
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    middle = max(1, size // 40)
    return {
        "GET /projects/:id/forks (first page)": get_ok(svc, "/projects/up%2Fapp/forks", ADMIN),
        "GET /projects/:id/forks (as a user)": get_ok(svc, "/projects/up%2Fapp/forks", MEMBER),
        "GET /projects/:id/forks?page=middle": get_ok(
            svc, f"/projects/up%2Fapp/forks?page={middle}", ADMIN
        ),
        "GET /projects/:id/forks?order_by=name": get_ok(
            svc, "/projects/up%2Fapp/forks?order_by=name&sort=asc", ADMIN
        ),
        "GET /projects/:id (a fork)": get_ok(svc, "/projects/f0%2Fapp", ADMIN),
        "GET /projects/:id (shared, as member)": get_ok(svc, "/projects/up%2Fvault", MEMBER),
    }


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[100, 10_000], unit="forks", width=40)


if __name__ == "__main__":
    main()
