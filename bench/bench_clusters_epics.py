"""Benchmark of project and group clusters, epic issues and ``GET /issues/:id`` while the
instance holds 100 vs 10,000 projects, each with a project cluster and an issue assigned
to an epic of its own (so 10,000 clusters, epics and epic issues).

Run: ``python bench/bench_clusters_epics.py [--sizes 100 10000] [--repeat 200]``;
``make bench`` adds each case's ratio against its 100-project twin (target 1.5) to its
table. Each case lists one project's or the group's clusters, one epic's issues, or one
issue by id, so its time should not grow with the other projects' records.
"""

from __future__ import annotations

from latency import Case, get_ok, run_sizes, twin_rows
from table import Row

from fakeservice import FakeService
from fakeservice.clusters import models as clusters
from fakeservice.epics import issue_links
from fakeservice.epics import models as epics
from fakeservice.groups.models import find_group
from fakeservice.issues import models as issues
from fakeservice.projects.models import create_project

ADMIN = "root-token"
SMALL, BIG = 100, 10_000
REPEAT = 200


def build(size: int) -> FakeService:
    svc = FakeService(
        {
            "instance": {"plan": "ultimate"},
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": ADMIN, "scopes": ["api"]}]}
            ],
            "groups": [{"path": "big", "visibility": "public"}],
        }
    )
    store, now = svc.store, svc.clock.now()
    group = find_group(store, "big")
    assert group is not None
    clusters.add_cluster(
        store, now, user_id=1, owner=(clusters.GROUP, group.id), name="group",
        api_url="https://k8s.example.com", token="t",
    )  # fmt: skip
    for index in range(size):
        project = create_project(
            store, now, namespace=group, creator_id=1, path=f"p{index}", visibility="public"
        )
        clusters.add_cluster(
            store, now, user_id=1, owner=(clusters.PROJECT, project.id), name=f"c{index}",
            api_url="https://k8s.example.com", token="t",
        )  # fmt: skip
        issue = issues.create(store, project.id, 1, now, title="i")
        epic = epics.create_epic(store, group, 1, now, {"title": f"e{index}"})
        issue_links.assign(store, epic.id, issue.id, now)
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    project = f"big%2Fp{size - 1}"
    return {
        "GET /projects/:id/clusters": get_ok(svc, f"/projects/{project}/clusters", ADMIN),
        "GET /groups/:id/clusters": get_ok(svc, "/groups/big/clusters", ADMIN),
        "GET /groups/:id/epics/:iid/issues": get_ok(svc, f"/groups/big/epics/{size}/issues", ADMIN),
        "GET /issues/:id": get_ok(svc, f"/issues/{size}", ADMIN),
    }


def bench_rows() -> list[Row]:
    """For ``make bench``: each case with 10,000 projects against its 100-project twin."""
    return twin_rows("clusters/epics", "projects", build, cases, (SMALL, BIG), REPEAT, 1.5)


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[SMALL, BIG], unit="projects", width=40)


if __name__ == "__main__":
    main()
