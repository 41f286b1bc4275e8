"""Benchmark of the configuration-as-code endpoints: namespaces, topics, the topic filter
of ``GET /projects`` and badges, with 1,000 vs 50,000 projects (one group per ten
projects, one topic per hundred projects, badges on every group).

Run: ``python bench/bench_config.py [--sizes 1000 50000] [--repeat 100]``.
Prints a table of median and 95th-percentile latencies in milliseconds. Each case touches
a fixed amount of state (a page, ten tagged projects, one project's badges), so its time
should not grow with the size.
"""

from __future__ import annotations

from latency import Case, get_ok, run_sizes

from fakeservice import FakeService
from fakeservice.badges.models import GROUP, add_badge
from fakeservice.groups.models import create_group, find_group
from fakeservice.members.models import NAMESPACE, OWNER, add_member
from fakeservice.projects.models import create_project
from fakeservice.topics.models import canonical, recount

ADMIN = "root-token"
USER = "olga-token"
PER_GROUP = 10
PER_TOPIC = 100


def build(size: int) -> FakeService:
    svc = FakeService(
        {
            "users": [
                {
                    "username": "root",
                    "admin": True,
                    "tokens": [{"token": ADMIN, "scopes": ["api"]}],
                },
                {"username": "olga", "tokens": [{"token": USER, "scopes": ["api"]}]},
            ],
            "groups": [{"path": "big", "visibility": "public"}],
        }
    )
    store, now = svc.store, svc.clock.now()
    top = find_group(store, "big")
    assert top is not None
    add_member(store, now, kind=NAMESPACE, source_id=top.id, user_id=2, access_level=OWNER)
    group = top
    names: set[str] = set()
    for index in range(size):
        if index % PER_GROUP == 0:
            group = create_group(
                store, now, name=f"G{index}", path=f"g{index}", parent=top, visibility="public"
            )
            add_badge(
                store,
                GROUP,
                group.id,
                link_url="https://ci.example.com/%{project_path}",
                image_url="https://ci.example.com/%{project_path}/%{default_branch}.svg",
                name="ci",
            )
        topics = canonical(store, now, [f"topic-{index // PER_TOPIC}"])
        if index < 10:
            topics += canonical(store, now, ["rare"])
        names.update(topics)
        create_project(
            store, now, namespace=group, creator_id=1, path=f"p{index}", visibility="public",
            topics=topics,
        )  # fmt: skip
    recount(store, names)
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    last_group = f"big%2Fg{(size - 1) // PER_GROUP * PER_GROUP}"
    last_project = f"{last_group}%2Fp{size - 1}"

    def get(path: str, token: str = ADMIN) -> Case:
        return get_ok(svc, path, token)

    return {
        "GET /namespaces (admin, first page)": get("/namespaces"),
        "GET /namespaces (member of 1 group)": get("/namespaces", USER),
        "GET /namespaces/:path": get(f"/namespaces/{last_group}"),
        "GET /namespaces/:path/exists (taken)": get("/namespaces/big/exists"),
        "GET /topics (first page)": get("/topics"),
        "GET /topics/:id": get("/topics/1"),
        "GET /projects?topic=rare (10 projects)": get("/projects?topic=rare"),
        "GET /projects/:id (every setting)": get(f"/projects/{last_project}"),
        "GET /projects/:id/badges (group badge)": get(f"/projects/{last_project}/badges"),
    }


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[1_000, 50_000], unit="projects", width=44)


if __name__ == "__main__":
    main()
