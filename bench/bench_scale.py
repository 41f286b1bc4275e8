"""Cost that does not grow with the state (issue 13): each figure against its
small-state twin.

* isolation: what the ``fake_service`` fixture costs per test (putting the scenario's
  service back after a typical test: one project created, one read, one list page) on a
  1,000-project scenario against the default scenario.

Run: ``python bench/run.py --only scale`` (or ``make bench`` for every table).
"""

from __future__ import annotations

import time

from table import Row, ratio_row

from fakeservice import FakeService
from fakeservice.service import ServiceTemplate
from fakeservice.testing.recycle import recycled

TOKEN = "root-token"


def big_template(projects: int) -> ServiceTemplate:
    """The default scenario plus ``projects`` more public projects (1,000 in all)."""
    svc = FakeService()
    extra = projects - len(svc.store.tables["projects"])
    svc.load_scenario({"projects": [{"generate": extra, "path": "oss/big{n:04d}"}]})
    svc.mark_initial()
    return svc.template()


def typical_test(svc: FakeService, index: int) -> None:
    """What a typical test does: create a project, read one, read a list page."""
    svc.request("POST", "/projects", token=TOKEN, json_body={"name": f"t{index}"})
    svc.request("GET", "/projects/1", token=TOKEN)
    svc.request("GET", "/projects?per_page=20", token=TOKEN)


def fixture_cost(template: ServiceTemplate, tests: int = 200) -> float:
    """Median seconds the fixture takes to hand out the service after a typical test."""
    samples = []
    for index in range(tests):
        typical_test(recycled(template), index)
        start = time.perf_counter()
        recycled(template)
        samples.append(time.perf_counter() - start)
    samples.sort()
    return samples[len(samples) // 2]


def isolation_rows() -> list[Row]:
    small_template, big = FakeService().template(), big_template(1000)
    fixture_cost(small_template, 100)  # warm-up: pristine states, allocator
    fixture_cost(big, 100)
    rounds = [(fixture_cost(small_template), fixture_cost(big)) for _ in range(3)]
    small = sorted(r[0] for r in rounds)[1]
    large = sorted(r[1] for r in rounds)[1]
    name = "fixture per test, 1,000 projects"
    return [
        Row("isolation", name, large * 1000, "ms", target=1.0),
        ratio_row("isolation", name, large * 1000, small * 1000, "ms", "default scenario", 1.5),
    ]


def bench_rows() -> list[Row]:
    return isolation_rows()


if __name__ == "__main__":
    from table import render

    print(render(bench_rows()))
