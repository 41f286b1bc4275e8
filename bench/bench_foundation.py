"""Benchmark of the foundation: list pages and single gets with 100 vs 100,000 users and
projects (first page, a middle page, keyset), and requests per second over loopback.

Run: ``python bench/bench_foundation.py [--sizes 100 100000] [--repeat 200]``.
Prints a table of median and 95th-percentile latencies in milliseconds.
"""

from __future__ import annotations

import argparse
import time

import requests
from latency import Case, get_ok, measure, print_table

from fakeservice import FakeService

ADMIN = "root-token"


def build(size: int) -> FakeService:
    return FakeService(
        {
            "users": [
                {
                    "username": "root",
                    "admin": True,
                    "tokens": [{"token": ADMIN, "scopes": ["api"]}],
                },
                {"generate": size - 1, "username": "user{n:06d}"},
            ],
            "groups": [{"path": "big", "visibility": "public"}],
            "projects": [{"generate": size, "path": "big/p{n:06d}", "visibility": "public"}],
        }
    )


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    middle_users = max(1, size // 2 // 100)
    middle_projects = max(1, min(size // 2, 49_900) // 100)
    middle_id = size // 2

    def get(path: str, token: str | None = ADMIN) -> Case:
        return get_ok(svc, path, token)

    return {
        "GET /users first page": get("/users?per_page=100"),
        "GET /users middle page": get(f"/users?per_page=100&page={middle_users}"),
        "GET /users/:id": get(f"/users/{middle_id}"),
        "GET /projects first page (admin)": get("/projects?per_page=100&order_by=id"),
        "GET /projects middle page (admin)": get(
            f"/projects?per_page=100&order_by=id&page={middle_projects}"
        ),
        "GET /projects first page (anonymous)": get("/projects?per_page=100", token=None),
        "GET /projects keyset middle": get(
            f"/projects?pagination=keyset&order_by=id&sort=asc&per_page=100&id_after={middle_id}",
            token=None,
        ),
        "GET /projects/:id": get(f"/projects/{middle_id}"),
        "GET /projects/:path": get(f"/projects/big%2Fp{middle_id:06d}"),
    }


def loopback_rps(svc: FakeService, seconds: float) -> float:
    with svc.serve() as url, requests.Session() as session:
        session.headers["PRIVATE-TOKEN"] = ADMIN
        target = f"{url}/api/v4/projects/1"
        count = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            assert session.get(target, timeout=10).status_code == 200
            count += 1
    return count / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 100_000])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rows: list[tuple[str, int, float, float]] = []
    for size in args.sizes:
        start = time.perf_counter()
        svc = build(size)
        print(f"built {size} users + {size} projects in {time.perf_counter() - start:.1f} s")
        for name, call in cases(svc, size).items():
            median, p95 = measure(call, args.repeat)
            rows.append((name, size, median, p95))
        rps = loopback_rps(svc, args.seconds)
        print(f"loopback GET /projects/1 with {size} records: {rps:.0f} requests/s (one client)")
    print_table(rows, width=40, size="records")


if __name__ == "__main__":
    main()
