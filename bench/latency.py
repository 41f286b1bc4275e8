"""What the latency benchmarks share: timing a call many times (median and 95th
percentile, in milliseconds), GET cases that must answer 200, the results table, and the rows of a benchmark against
its small-state twin (:func:`twin_rows`)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from fakeservice import FakeService

Case = Callable[[int], object]


def measure(call: Case, repeat: int) -> tuple[float, float]:
    """Call ``call(0)``, ``call(1)``... ``repeat`` times; the median and p95 in ms."""
    samples = []
    for index in range(repeat):
        start = time.perf_counter()
        call(index)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[max(0, int(len(samples) * 0.95) - 1)]


def get_ok(svc: FakeService, path: str, token: str | None) -> Case:
    """A case that sends ``GET path`` in-process and requires a 200."""

    def call(_index: int) -> object:
        response = svc.request("GET", path, token=token)
        assert response.status == 200, (path, response.status, response.body[:200])
        return response

    return call


def print_table(rows: list[tuple[str, int, float, float]], *, width: int, size: str) -> None:
    """Rows of ``(case, size, median ms, p95 ms)`` under a header; ``size`` names the size."""
    print(f"\n{'case':{width}} {size:>8} {'median ms':>10} {'p95 ms':>8}")
    for name, count, median, p95 in rows:
        print(f"{name:{width}} {count:>8} {median:>10.2f} {p95:>8.2f}")


def run_sizes(
    doc: str | None,
    build: Callable[[int], FakeService],
    cases: Callable[[FakeService, int], dict[str, Case]],
    *,
    sizes: list[int],
    unit: str,
    width: int,
) -> None:
    """The usual benchmark ``main``: ``--sizes`` and ``--repeat`` from the command line,
    each size built once (its build time printed), every case measured, one table."""
    import argparse

    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--sizes", type=int, nargs="+", default=sizes)
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    rows: list[tuple[str, int, float, float]] = []
    for size in args.sizes:
        start = time.perf_counter()
        svc = build(size)
        print(f"built {size} {unit} in {time.perf_counter() - start:.1f} s")
        for name, call in cases(svc, size).items():
            median, p95 = measure(call, args.repeat)
            rows.append((name, size, median, p95))
    print_table(rows, width=width, size=unit)


def admin_and_group(token: str, group: str = "big") -> FakeService:
    """A service with only an administrator (``token``) and one public group: the start of
    the benchmarks that build large states through the models."""
    return FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": token, "scopes": ["api"]}]}
            ],
            "groups": [{"path": group, "visibility": "public"}],
        }
    )


def twin_rows(
    area: str,
    build: Callable[[int], FakeService],
    cases: Callable[[FakeService, int], dict[str, Case]],
    *,
    small: int,
    big: int,
    unit: str,
    repeat: int,
    target: float = 1.5,
) -> list[Any]:
    """``bench_rows`` of a benchmark with a small-state twin: each case's median with
    ``big`` records against the same case with ``small``."""
    from table import ratio_row

    small_svc, big_svc = build(small), build(big)
    small_cases, big_cases = cases(small_svc, small), cases(big_svc, big)
    rows = []
    for name, call in big_cases.items():
        big_ms = measure(call, repeat)[0]
        small_ms = measure(small_cases[name], repeat)[0]
        rows.append(
            ratio_row(area, f"{name}, {big:,} {unit}", big_ms, small_ms, "ms",
                      f"{small} {unit}", target)
        )  # fmt: skip
    return rows
