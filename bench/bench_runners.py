"""Benchmark of runners: the runners API and the choice of a build's runner while the
instance holds 100 vs 10,000 project runners (one per project) and ten jobs run by each.

Run: ``python bench/bench_runners.py [--sizes 100 10000] [--repeat 100]``; ``make bench``
adds each case's ratio against its 100-runner twin (target 1.5) to its table.
Prints a table of median and 95th-percentile latencies in milliseconds. Each case reads
one runner, one project's runners or one runner's jobs, or picks one build's runner, so
its time should not grow with the other projects' runners and jobs.
"""

from __future__ import annotations

from latency import Case, admin_and_group, get_ok, run_sizes, twin_rows
from table import Row

from fakeservice import FakeService
from fakeservice.ci.models import Job, jobs
from fakeservice.groups.models import find_group
from fakeservice.projects.models import create_project
from fakeservice.runners.availability import runner_for
from fakeservice.runners.models import PROJECT, create_runner, new_token

ADMIN = "root-token"
JOBS_PER_RUNNER = 10
SMALL, BIG = 100, 10_000
REPEAT = 200


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
        runner = create_runner(
            store, now, runner_type=PROJECT, token=new_token(store), project_ids=(project.id,),
            fields={"tag_list": ["docker"], "run_untagged": False},
        )  # fmt: skip
        for number in range(JOBS_PER_RUNNER):
            table.insert(
                Job(
                    id=store.next_id("ci_jobs"), project_id=project.id, pipeline_id=0,
                    name=f"job{number}", stage="test", stage_idx=0, ref="main", sha="0" * 40,
                    tag=False, created_at=now, status="success", runner_id=runner.id,
                )
            )  # fmt: skip
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    last_runner = size + 1  # the built-in runner is 1
    project = f"big%2Fp{size - 1}"
    waiting = Job(
        id=0, project_id=size, pipeline_id=0, name="build", stage="test", stage_idx=0,
        ref="main", sha="0" * 40, tag=False, created_at=svc.clock.now(), tag_list=("docker",),
    )  # fmt: skip

    def pick(_index: int) -> object:
        assert runner_for(svc.store, waiting) == last_runner
        return waiting

    return {
        "GET /runners/:id": get_ok(svc, f"/runners/{last_runner}", ADMIN),
        "GET /runners/:id/jobs (10 jobs)": get_ok(svc, f"/runners/{last_runner}/jobs", ADMIN),
        "GET /projects/:id/runners": get_ok(svc, f"/projects/{project}/runners", ADMIN),
        "GET /runners/all?type=instance_type": get_ok(
            svc, "/runners/all?type=instance_type", ADMIN
        ),
        "runner choice for a tagged build": pick,
    }


def bench_rows() -> list[Row]:
    """For ``make bench``: each case with 10,000 runners against its 100-runner twin."""
    return twin_rows("runners", build, cases, small=SMALL, big=BIG, unit="runners", repeat=REPEAT)


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[SMALL, BIG], unit="runners", width=36)


if __name__ == "__main__":
    main()
