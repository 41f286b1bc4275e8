"""Benchmark of project export and import: a project with 5,000 commits (each changing a
file among 200) and 1,000 issues, exported to a real archive and imported back, against a
small-state twin with 50 commits and 10 issues.

Run: ``python bench/bench_transfer.py [--commits 5000] [--issues 1000] [--small 50]
[--small-issues 10] [--repeat 3]``.
Prints, per size, the median wall time of export (archive built and downloaded) and import
(archive read, bundle unpacked, project filled), the archive's size, the peak memory
(``tracemalloc``) of each, and the ratio big/small. The issues are created through the API
(every tenth one closed) and travel in the archive with the repository, settings and
members.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable

from fakeservice import FakeService
from fakeservice.projects.models import find_project
from fakeservice.repository.git import Action
from fakeservice.repository.models import commit_files, read_repository
from fakeservice.users.models import find_by_username

ADMIN = "root-token"
FILES = 200


def build(commits: int, issues: int) -> FakeService:
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ADMIN}]}],
            "groups": [{"path": "big", "visibility": "public"}],
            "projects": [{"path": "big/repo", "visibility": "public"}],
        }
    )
    store, now = svc.store, svc.now()
    project = find_project(store, "big/repo")
    user = find_by_username(store, "root")
    assert project is not None and user is not None
    repo = read_repository(store, project)
    for index in range(commits):
        name = f"src/file_{index % FILES:03d}.txt"
        kind = "create" if index < FILES else "update"
        action = Action(kind, name, content=f"revision {index}\n".encode() * 4)
        commit_files(
            store, project, repo, [action], user=user, now=now, branch="main",
            message=f"change {index}",
        )  # fmt: skip
    for index in range(issues):
        made = svc.request(
            "POST",
            "/projects/1/issues",
            token=ADMIN,
            json_body={"title": f"issue {index}", "description": f"body of issue {index}"},
        )
        assert made.status == 201
        if index % 10 == 0:
            iid = made.json()["iid"]
            closed = svc.request(
                "PUT", f"/projects/1/issues/{iid}", token=ADMIN, json_body={"state_event": "close"}
            )
            assert closed.status == 200
    return svc


def measured(action: Callable[[], object], *, traced: bool) -> tuple[float, int, object]:
    """Wall time and, when ``traced``, the peak traced memory (tracing slows the run, so
    times come from untraced runs)."""
    if traced:
        tracemalloc.start()
    began = time.perf_counter()
    result = action()
    elapsed = time.perf_counter() - began
    peak = tracemalloc.get_traced_memory()[1] if traced else 0
    if traced:
        tracemalloc.stop()
    return elapsed, peak, result


def export(svc: FakeService) -> bytes:
    assert svc.request("POST", "/projects/1/export", token=ADMIN).status == 202
    answer = svc.request("GET", "/projects/1/export/download", token=ADMIN)
    assert answer.status == 200
    return answer.body


def import_into(svc: FakeService, data: bytes, path: str) -> None:
    answer = svc.httpx_client().post(
        "/api/v4/projects/import",
        headers={"PRIVATE-TOKEN": ADMIN},
        data={"path": path, "namespace": "big"},
        files={"file": ("export.tar.gz", data, "application/gzip")},
    )
    assert answer.status_code == 201 and answer.json()["import_status"] == "finished"


def run(commits: int, issues: int, repeat: int) -> dict[str, float]:
    svc = build(commits, issues)
    out: dict[str, list[float]] = {"export_s": [], "import_s": [], "export_peak_mb": [],
                                   "import_peak_mb": []}  # fmt: skip
    size = 0
    for attempt in range(repeat + 1):
        traced = attempt == repeat  # the last round measures memory only
        seconds, peak, data = measured(lambda: export(svc), traced=traced)
        assert isinstance(data, bytes)
        size = len(data)
        imported, peak_in, _ = measured(
            lambda: import_into(svc, data, f"copy-{attempt}"),  # noqa: B023
            traced=traced,
        )
        if traced:
            out["export_peak_mb"].append(peak / 2**20)
            out["import_peak_mb"].append(peak_in / 2**20)
        else:
            out["export_s"].append(seconds)
            out["import_s"].append(imported)
    result = {key: statistics.median(values) for key, values in out.items()}
    result["archive_mb"] = size / 2**20
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=5000)
    parser.add_argument("--issues", type=int, default=1000)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--small-issues", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    small = run(args.small, args.small_issues, args.repeat)
    big = run(args.commits, args.issues, args.repeat)
    print(f"{'measure':<16}{args.small:>12}{args.commits:>12}{'ratio':>10}")
    for key in small:
        ratio = big[key] / small[key] if small[key] else float("nan")
        print(f"{key:<16}{small[key]:>12.3f}{big[key]:>12.3f}{ratio:>10.1f}")


if __name__ == "__main__":
    main()
