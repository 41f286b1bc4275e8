"""Benchmark of the collaboration areas.

1. Listing merge requests on a project holding 100,000 of them (ten labels, one each)
   against a small-state twin holding 200 (so that a label page is full too): the first page, a label filter and a middle
   page (``page`` at half the list), in-process requests; the ratio big/small shows what
   state a request does not touch costs (1.0 is flat).
2. The changes and diffs of a merge request whose source branch changes 1,000 files.

Run: ``python bench/bench_collab.py [--merge-requests 100000] [--small 200] [--files 1000]
[--repeat 50]``. Prints median and 95th-percentile latencies in milliseconds and ratios.
"""

from __future__ import annotations

import argparse
import datetime as dt
import time

from latency import get_ok, measure, print_table

from fakeservice import FakeService
from fakeservice.labels import models as labels
from fakeservice.merge_requests.models import MergeRequest, merge_requests
from fakeservice.projects.models import find_project

ADMIN = "root-token"
USERS = [{"username": "root", "admin": True, "tokens": [{"token": ADMIN, "scopes": ["api"]}]}]
LABELS = 10


def with_merge_requests(count: int) -> FakeService:
    """A project with ``count`` open merge requests, label ``label-<i % 10>`` each, one a
    second apart (inserted as records: the git work per request is not what is measured)."""
    svc = FakeService(
        {
            "users": USERS,
            "groups": [{"path": "big", "visibility": "public"}],
            "projects": [
                {
                    "path": "big/repo",
                    "files": {"README.md": "hi\n"},
                    "branches": [{"name": "feature", "from": "main"}],
                    "labels": [{"name": f"label-{n}"} for n in range(LABELS)],
                }
            ],
        }
    )
    store = svc.store
    project = find_project(store, "big/repo")
    assert project is not None
    label_ids = [
        found.id
        for n in range(LABELS)
        if (found := labels.find_by_name(store, [(labels.PROJECT, project.id)], f"label-{n}"))
    ]
    start = svc.clock.now()
    table = merge_requests(store)
    for index in range(count):
        when = start + dt.timedelta(seconds=index)
        table.insert(
            MergeRequest(
                id=store.next_id("merge_requests"),
                iid=store.next_iid("merge_requests", project.id),
                project_id=project.id,
                source_project_id=project.id,
                title=f"Change {index}",
                description=None,
                author_id=1,
                source_branch="feature",
                target_branch="main",
                created_at=when,
                updated_at=when,
                label_ids=[label_ids[index % LABELS]],
            )
        )
    return svc


def list_cases(svc: FakeService, count: int) -> dict[str, object]:
    base = "/projects/big%2Frepo/merge_requests"
    middle = max(1, count // 2 // 20)
    return {
        "first page": get_ok(svc, f"{base}?per_page=20", ADMIN),
        "label filter": get_ok(svc, f"{base}?per_page=20&labels=label-3", ADMIN),
        "middle page": get_ok(svc, f"{base}?per_page=20&page={middle}", ADMIN),
        "opened, updated_at asc": get_ok(
            svc, f"{base}?per_page=20&state=opened&order_by=updated_at&sort=asc", ADMIN
        ),
    }


def big_change(files: int) -> FakeService:
    svc = FakeService(
        {
            "users": USERS,
            "groups": [{"path": "big", "visibility": "public"}],
            "projects": [
                {
                    "path": "big/diff",
                    "files": {f"src/f{n:04d}.txt": f"line {n}\n" for n in range(files)},
                    "commits": [
                        {
                            "message": "Touch everything",
                            "branch": "wide",
                            "from": "main",
                            "files": {
                                f"src/f{n:04d}.txt": f"line {n}\nmore\n" for n in range(files)
                            },
                        }
                    ],
                    "merge_requests": [{"title": "Wide", "source_branch": "wide"}],
                }
            ],
        }
    )
    return svc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--merge-requests", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()

    started = time.perf_counter()
    big = with_merge_requests(args.merge_requests)
    small = with_merge_requests(args.small)
    print(
        f"built {args.merge_requests:,} + {args.small} merge requests in {time.perf_counter() - started:.1f}s"
    )
    big_cases, small_cases = list_cases(big, args.merge_requests), list_cases(small, args.small)
    rows = []
    ratios = []
    for name, case in big_cases.items():
        median, p95 = measure(case, args.repeat)  # type: ignore[arg-type]
        small_median, small_p95 = measure(small_cases[name], args.repeat)  # type: ignore[arg-type]
        rows.append((f"{name} (big)", args.merge_requests, median, p95))
        rows.append((f"{name} (small)", args.small, small_median, small_p95))
        ratios.append((name, median / small_median))
    print_table(rows, width=32, size="MRs")
    print(f"\n{'case':32} {'big/small':>10}")
    for name, ratio in ratios:
        print(f"{name:32} {ratio:>10.2f}")

    started = time.perf_counter()
    wide = big_change(args.files)
    print(f"\nbuilt a {args.files}-file change in {time.perf_counter() - started:.1f}s")
    base = "/projects/big%2Fdiff/merge_requests/1"
    repeat = max(5, args.repeat // 5)
    diff_rows = [
        ("changes", args.files, *measure(get_ok(wide, f"{base}/changes", ADMIN), repeat)),
        (
            "diffs, first page of 20",
            args.files,
            *measure(get_ok(wide, f"{base}/diffs", ADMIN), repeat),
        ),
        ("single merge request", args.files, *measure(get_ok(wide, base, ADMIN), repeat)),
    ]
    print_table(diff_rows, width=32, size="files")


if __name__ == "__main__":
    main()
