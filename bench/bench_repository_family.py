"""Benchmark of the repository family next to the spec: commit statuses and releases.

A project with ``--commits`` commits (a minute apart), each with ``--statuses`` external
statuses, and ``--releases`` releases, against a small twin (10 commits, 10 releases):
posting a status, listing one commit's statuses, listing a page of releases, one
release, and comparing two neighbouring commits. Lists come from indexes and a
comparison walks only the commits between, so the ratios to the twin should stay near 1.

Run: ``python bench/bench_repository_family.py [--commits 500] [--statuses 4]
[--releases 500] [--repeat 100]``. Prints median and 95th-percentile latencies in
milliseconds for both sizes, and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any

from latency import Case, get_ok, measure

from fakeservice import FakeService

ADMIN = "root-token"
P = "/projects/root%2Frepo"


def build(commits: int, statuses: int, releases: int) -> tuple[FakeService, list[str]]:
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    history = [
        {
            "message": f"Change {n}",
            "files": {f"f{n % 50}.txt": f"v{n}\n"},
            "at": (start + dt.timedelta(minutes=n)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        for n in range(commits)
    ]
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ADMIN}]}],
            "projects": [
                {
                    "path": "root/repo",
                    "creator": "root",
                    "files": {"README.md": "# big\n"},
                    "commits": history,
                    "tags": [{"name": f"v{n}", "ref": "main"} for n in range(releases)],
                    "releases": [{"tag": f"v{n}"} for n in range(releases)],
                }
            ],
        }
    )
    shas = [c["id"] for c in _all(svc, f"{P}/repository/commits?per_page=100")]
    for sha in shas:
        for n in range(statuses):
            _post(svc, sha, {"state": "success", "name": f"ext{n}", "ref": "main"})
    return svc, shas


def _all(svc: FakeService, path: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        batch = svc.request("GET", f"{path}&page={page}", token=ADMIN).json()
        found.extend(batch)
        if len(batch) < 100:
            return found
        page += 1


def _post(svc: FakeService, sha: str, body: dict[str, Any]) -> None:
    response = svc.request("POST", f"{P}/statuses/{sha}", token=ADMIN, json_body=body)
    assert response.status == 201, response.body[:200]


def cases(svc: FakeService, shas: list[str]) -> dict[str, Case]:
    middle = shas[len(shas) // 2]

    def post(index: int) -> None:
        _post(svc, middle, {"state": "running", "name": f"bench{index}", "ref": "main"})

    return {
        "post status": post,
        "list statuses": get_ok(svc, f"{P}/repository/commits/{middle}/statuses", ADMIN),
        "list releases": get_ok(svc, f"{P}/releases?per_page=5", ADMIN),
        "get release": get_ok(svc, f"{P}/releases/v3", ADMIN),
        "compare": get_ok(svc, f"{P}/repository/compare?from={shas[1]}&to={shas[0]}", ADMIN),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--statuses", type=int, default=4)
    parser.add_argument("--releases", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    big = cases(*build(args.commits, args.statuses, args.releases))
    small = cases(*build(10, args.statuses, 10))
    print(f"\n{'case':16} {'big ms':>8} {'p95':>8} {'small ms':>9} {'p95':>8} {'ratio':>6}")
    for name in big:
        big_median, big_p95 = measure(big[name], args.repeat)
        small_median, small_p95 = measure(small[name], args.repeat)
        ratio = big_median / small_median if small_median else float("inf")
        print(
            f"{name:16} {big_median:8.2f} {big_p95:8.2f} {small_median:9.2f} {small_p95:8.2f}"
            f" {ratio:6.2f}"
        )


if __name__ == "__main__":
    main()
