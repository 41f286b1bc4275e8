"""``make bench``: run every ``bench/bench_*.py`` that defines ``bench_rows()`` and print
ONE table of their rows (each figure a ratio against its small-state twin or a floor).

Scripts without ``bench_rows()`` are listed as skipped (run them directly). The exit
status is 1 when a row misses its target. ``--only NAME`` runs the scripts whose name
contains NAME.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from table import Row, render  # noqa: E402


def machine() -> str:
    cpus = os.cpu_count() or 0
    return f"{platform.machine()} {platform.processor() or platform.system()}, {cpus} cores, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    rows: list[Row] = []
    skipped: list[str] = []
    started = time.perf_counter()
    for path in sorted(HERE.glob("bench_*.py")):
        if args.only not in path.stem:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        collect = getattr(module, "bench_rows", None)
        if collect is None:
            skipped.append(path.name)
            continue
        print(f"running {path.name}...", file=sys.stderr, flush=True)
        rows.extend(collect())
    print(f"fakeservice bench, {dt.date.today().isoformat()}, {machine()}")
    print(f"({time.perf_counter() - started:.0f} s)\n")
    print(render(rows))
    if skipped:
        print(f"\nwithout bench_rows() (run them directly): {', '.join(skipped)}")
    return 0 if all(row.met is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
