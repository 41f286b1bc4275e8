"""Benchmark of the repository area.

1. File create, update and get through the API (in-process requests) on a project whose
   repository holds 1,000 files and 1,000 commits, plus blame, the tree and history.
2. 1,000 projects with small repositories (two files, two commits each): load time,
   memory (tracemalloc), a snapshot and a restore.

Run: ``python bench/bench_repository.py [--files 1000] [--commits 1000] [--projects 1000]
[--repeat 200]``. Prints a table of median and 95th-percentile latencies in milliseconds.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from typing import Any

from latency import Case, measure

from fakeservice import FakeService

ADMIN = "root-token"
USERS = [{"username": "root", "admin": True, "tokens": [{"token": ADMIN, "scopes": ["api"]}]}]


def big_repository(files: int, commits: int) -> FakeService:
    history = [
        {"message": f"Change {n}", "files": {f"dir{n % 10}/file{n % files:04d}.txt": f"v{n}\n"}}
        for n in range(commits - 1)
    ]
    return FakeService(
        {
            "users": USERS,
            "groups": [{"path": "big", "visibility": "public"}],
            "projects": [
                {
                    "path": "big/repo",
                    "files": {f"dir{n % 10}/file{n:04d}.txt": f"line {n}\n" for n in range(files)},
                    "commits": history,
                }
            ],
        }
    )


def check(response: Any, status: int) -> None:
    if response.status != status:
        raise SystemExit(f"unexpected {response.status}: {response.body[:200]!r}")


def file_cases(svc: FakeService, files: int) -> dict[str, Case]:
    base = "/projects/big%2Frepo/repository"

    def create(index: int) -> None:
        body = {"branch": "main", "content": f"new {index}\n", "commit_message": "create"}
        check(svc.request("POST", f"{base}/files/new{index}.txt", token=ADMIN, json_body=body), 201)

    def update(index: int) -> None:
        body = {"branch": "main", "content": f"update {index}\n", "commit_message": "update"}
        number = (index * 10 + 3) % files
        path = f"{base}/files/dir3%2Ffile{number:04d}.txt"
        check(svc.request("PUT", path, token=ADMIN, json_body=body), 200)

    def get(index: int) -> None:
        number = index % files
        path = f"{base}/files/dir{number % 10}%2Ffile{number:04d}.txt?ref=main"
        check(svc.request("GET", path, token=ADMIN), 200)

    def blame(index: int) -> None:
        number = index % files
        path = f"{base}/files/dir{number % 10}%2Ffile{number:04d}.txt/blame?ref=main"
        check(svc.request("GET", path, token=ADMIN), 200)

    def tree(index: int) -> None:
        check(svc.request("GET", f"{base}/tree?path=dir{index % 10}", token=ADMIN), 200)

    def history(index: int) -> None:
        check(svc.request("GET", f"{base}/commits?per_page=20", token=ADMIN), 200)

    return {
        "file create (POST)": create,
        "file update (PUT)": update,
        "file get (GET)": get,
        "file blame (GET)": blame,
        "tree page (GET)": tree,
        "commits page (GET)": history,
    }


def many_projects(count: int) -> tuple[FakeService, float, int, int]:
    scenario = {
        "users": USERS,
        "groups": [{"path": "many", "visibility": "public"}],
        "projects": [
            {
                "generate": count,
                "path": "many/p{n:04d}",
                "files": {"README.md": "# project\n", "src/main.py": "print('hi')\n"},
                "commits": [{"message": "Second", "files": {"src/main.py": "print('bye')\n"}}],
            }
        ],
    }
    tracemalloc.start()
    start = time.perf_counter()
    svc = FakeService(scenario)
    seconds = time.perf_counter() - start
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return svc, seconds, current, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--projects", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    start = time.perf_counter()
    svc = big_repository(args.files, args.commits)
    built = time.perf_counter() - start
    print(f"repository with {args.files} files and {args.commits} commits built in {built:.2f} s")
    print(f"{'operation':<24} {'median ms':>10} {'p95 ms':>10}")
    for name, case in file_cases(svc, args.files).items():
        median, p95 = measure(case, args.repeat)
        print(f"{name:<24} {median:>10.2f} {p95:>10.2f}")
    assert not svc.server_errors, svc.server_errors

    projects, seconds, current, peak = many_projects(args.projects)
    start = time.perf_counter()
    snapshot = projects.snapshot()
    snap_seconds = time.perf_counter() - start
    start = time.perf_counter()
    projects.restore(snapshot)
    restore_seconds = time.perf_counter() - start
    print()
    print(f"{args.projects} projects with small repositories (2 files, 2 commits each)")
    print(f"{'measure':<24} {'value':>12}")
    print(f"{'load time':<24} {seconds:>10.2f} s")
    print(f"{'memory now':<24} {current / 2**20:>9.1f} MiB")
    print(f"{'memory peak':<24} {peak / 2**20:>9.1f} MiB")
    print(f"{'snapshot':<24} {snap_seconds * 1000:>9.0f} ms ({len(snapshot) / 2**20:.1f} MiB)")
    print(f"{'restore':<24} {restore_seconds * 1000:>9.0f} ms")

    def get(index: int) -> None:
        project = f"many%2Fp{index % args.projects + 1:04d}"
        path = f"/projects/{project}/repository/files/README.md?ref=main"
        check(projects.request("GET", path, token=ADMIN), 200)

    median, p95 = measure(get, args.repeat)
    print(f"{'file get (GET)':<24} {median:>7.2f} ms median, {p95:.2f} ms p95")


if __name__ == "__main__":
    main()
