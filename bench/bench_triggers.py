"""Benchmark of pipeline trigger tokens and resource groups while the instance holds 100
vs 10,000 projects, each with a trigger token and a resource group with five waiting jobs.

Run: ``python bench/bench_triggers.py [--sizes 100 10000] [--repeat 100]``; ``make bench``
adds each case's ratio against its 100-project twin (target 1.5) to its table.
Prints a table of median and 95th-percentile latencies in milliseconds. Each case lists
one project's tokens or one group's waiting jobs, finds a token by its secret, or hands
one free group to its next job, so its time should not grow with the other projects'.
"""

from __future__ import annotations

from latency import Case, admin_and_group, get_ok, run_sizes, twin_rows
from table import Row

from fakeservice import FakeService
from fakeservice.ci.models import Job, jobs
from fakeservice.ci.resource_groups import models as groups
from fakeservice.ci.triggers import models as triggers
from fakeservice.groups.models import find_group
from fakeservice.projects.models import create_project

ADMIN = "root-token"
WAITING_PER_GROUP = 5
SMALL, BIG = 100, 10_000
REPEAT = 200
INNER = 100  # the in-memory cases run this many times per sample (measurable figures)


def build(size: int) -> FakeService:
    svc = admin_and_group(ADMIN)
    store, now = svc.store, svc.clock.now()
    group = find_group(store, "big")
    assert group is not None
    table = jobs(store)
    for index in range(size):
        project = create_project(
            store, now, namespace=group, creator_id=1, path=f"p{index}", visibility="public"
        )
        triggers.create(store, project.id, 1, now, description=f"bot {index}")
        groups.ensure(store, project.id, "production", now)
        for number in range(WAITING_PER_GROUP):
            table.insert(
                Job(
                    id=store.next_id("ci_jobs"), project_id=project.id, pipeline_id=number,
                    name=f"deploy{number}", stage="deploy", stage_idx=0, ref="main",
                    sha="0" * 40, tag=False, created_at=now, status="running" if number == 0
                    else "waiting_for_resource", resource_group="production",
                )
            )  # fmt: skip
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    store = svc.store
    last = size  # project ids start at 1: the newest project's id
    project = f"big%2Fp{size - 1}"
    secret = next(iter(triggers.of_project(store, last))).token

    now = svc.clock.now()

    def lookup(_index: int) -> object:
        for _ in range(INNER):
            found = triggers.by_token(store, secret)
        assert found is not None and found.project_id == last
        return found

    def hand_on(_index: int) -> object:
        for _ in range(INNER):
            groups.assign(store, last, "production", now)  # held: nothing moves
        return None

    return {
        "GET /projects/:id/triggers": get_ok(svc, f"/projects/{project}/triggers", ADMIN),
        "GET .../resource_groups/:key/upcoming_jobs": get_ok(
            svc, f"/projects/{project}/resource_groups/production/upcoming_jobs", ADMIN
        ),
        "trigger token lookup (x100)": lookup,
        "resource group hand-on check (x100)": hand_on,
    }


def bench_rows() -> list[Row]:
    """For ``make bench``: each case with 10,000 projects against its 100-project twin."""
    return twin_rows("triggers", "projects", build, cases, (SMALL, BIG), REPEAT, 1.5)


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[SMALL, BIG], unit="projects", width=44)


if __name__ == "__main__":
    main()
