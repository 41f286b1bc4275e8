"""Benchmark of the CI area: creating a pipeline from a 50-job CI file over the API, and
listing the jobs of a project with 1,000 vs 100,000 jobs (first page, a ``scope`` filter,
an array ``scope``, a middle page).

Run: ``python bench/bench_ci.py [--sizes 1000 100000] [--repeat 100]``.
Prints a table of median and 95th-percentile latencies in milliseconds. The jobs are
made by the same code the API uses (pipelines planned from the CI file; one pipeline in
three run to completion by the simulated runner, one in five canceled).
"""

from __future__ import annotations

import argparse
import time

from latency import Case, get_ok, measure, print_table

from fakeservice import FakeService
from fakeservice.ci.models import jobs
from fakeservice.ci.pipelines import operations as pipeline_ops
from fakeservice.ci.pipelines.creation import create_planned, parse_at
from fakeservice.ci.repo import resolve_ref
from fakeservice.ci.runner import simulation
from fakeservice.projects.models import find_project

ADMIN = "root-token"
JOBS_PER_PIPELINE = 50
STAGES = ("build", "test", "deploy")


def ci_file(count: int = JOBS_PER_PIPELINE) -> str:
    lines = [f"stages: [{', '.join(STAGES)}]"]
    for index in range(count):
        stage = STAGES[index * len(STAGES) // count]
        lines += [
            f"job_{index:02d}:",
            f"  stage: {stage}",
            f"  script: [echo {index}]",
            "  artifacts:",
            "    paths: [out/]",
        ]
    return "\n".join(lines) + "\n"


def build(job_count: int) -> FakeService:
    svc = FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": ADMIN, "scopes": ["api"]}]}
            ],
            "groups": [{"path": "big", "visibility": "public"}],
            "projects": [
                {"path": "big/ci", "visibility": "public", "files": {".gitlab-ci.yml": ci_file()}}
            ],
            "runner": {"outcomes": {"job_07": {"status": "failed"}}},
        }
    )
    store = svc.store
    project = find_project(store, "big/ci")
    info = resolve_ref(store, project, "main")
    assert not isinstance(info, str)
    config = parse_at(store, project, info.sha, ci_file())
    now = svc.clock.now()
    for number in range(job_count // JOBS_PER_PIPELINE):
        pipeline = create_planned(
            store, project, info, config, source="push", user_id=1, variables=(), now=now
        )
        if number % 3 == 0:
            simulation.run_pipeline(store, pipeline, now)
        elif number % 5 == 0:
            pipeline_ops.cancel(store, pipeline, now)
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    middle = max(1, size // 2 // 100)
    project = find_project(svc.store, "big/ci")
    index = jobs(svc.store).sorted["builds_by_project_status"]
    successes = len(index.part((project.id, "success")))
    middle_success = max(1, successes // 2 // 100)

    def get(path: str) -> Case:
        return get_ok(svc, path, ADMIN)

    def create(_index: int) -> object:
        response = svc.request(
            "POST", "/projects/big%2Fci/pipeline", token=ADMIN, json_body={"ref": "main"}
        )
        assert response.status == 201, response.body[:200]
        return response

    base = "/projects/big%2Fci/jobs?per_page=100"
    return {
        "GET /jobs first page": get(base),
        "GET /jobs scope=failed": get(base + "&scope=failed"),
        "GET /jobs scope[]=success&scope[]=failed": get(base + "&scope[]=success&scope[]=failed"),
        "GET /jobs middle page": get(f"{base}&page={middle}"),
        f"GET /jobs scope=success middle page ({successes})": get(
            f"{base}&scope=success&page={middle_success}"
        ),
        "POST /pipeline (50-job CI file)": create,  # last: it adds jobs
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000])
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    rows: list[tuple[str, int, float, float]] = []
    for size in args.sizes:
        start = time.perf_counter()
        svc = build(size)
        made = len(jobs(svc.store))
        print(
            f"built {made} jobs in {made // JOBS_PER_PIPELINE} pipelines in "
            f"{time.perf_counter() - start:.1f} s"
        )
        for name, call in cases(svc, size).items():
            median, p95 = measure(call, args.repeat)
            rows.append((name, made, median, p95))
    print_table(rows, width=44, size="jobs")


if __name__ == "__main__":
    main()
