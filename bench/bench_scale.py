"""Cost that does not grow with the state (issue 13): each figure against its
small-state twin.

* isolation: what the ``fake_service`` fixture costs per test (putting the scenario's
  service back after a typical test: one project created, one read, one list page) on a
  1,000-project scenario against the default scenario.
* memory: the growth of the resident set of a process serving 50,000 requests against
  the same process after 5,000 (in-process requests: reads and rewrites of one user;
  the journal is a ring of 10,000), in a subprocess of its own.
* persistence: a small write (one user's bio) with the state file attached, at 3 MB and
  at 300 MB of state (the bulk: repository objects of another project).
* records: tracemalloc bytes per user, per project (a service loading N of them against
  one loading none, its initial snapshot included), per three-job pipeline and per
  file commit (through the API, journal of one entry), against a floor (the target);
  bytes per file commit adding a file to a directory of 10,000 entries against one of
  10.
* big scenarios: loading 10,000 users and 1,000 projects from a YAML file; a list page
  (first, middle, last; projects by keyset, as offsets stop at 50,000 for them) of
  users, projects, pipelines and jobs at 1,000,000 records
  against 100, the big states built through the store's bulk fast path
  (:meth:`Table.bulk_insert`), not HTTP. ``FAKESERVICE_BENCH_ROWS=100000`` measures a
  smaller state for a quicker run.
* history: reads of a repository of 3,000 and 20,000 commits against the same reads
  of one of 50 (a file GET right after another commit, the first GET after a restore,
  ``commits?path=``, blame, the tree), the repositories built through the git layer.

Run: ``python bench/run.py --only scale`` (or ``make bench`` for every table).
"""

from __future__ import annotations

import datetime as dt
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table import Row, ratio_row

from fakeservice import FakeService
from fakeservice.projects.models import projects
from fakeservice.repository.git import Action, Repository
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


def history_service(commits: int) -> FakeService:
    """A service whose project 1 has ``commits`` commits: README.md and docs/a.md in
    the first, then each changing one of 50 files under src/d0..d6 (built through the
    git layer, not HTTP)."""
    repo = Repository("main")
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    first = [Action("create", "README.md", b"hello\n"), Action("create", "docs/a.md", b"a\n")]
    repo.commit("main", first, message="init", author_name="a", author_email="a@x.test", when=start)
    for n in range(commits - 1):
        path = f"src/d{n % 50 % 7}/f{n % 50}.txt"
        change = Action("update" if n >= 50 else "create", path, f"v{n}\n".encode())
        when = start + dt.timedelta(seconds=n + 1)
        repo.commit(
            "main", [change], message=f"c{n}", author_name="a", author_email="a@x", when=when
        )
    return with_repository(repo)


def with_repository(repo: Repository, **kw: object) -> FakeService:
    """A service whose project 1 (root/repo) has ``repo`` as its repository."""
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": TOKEN}]}],
            "projects": [{"path": "root/repo"}],
        },
        **kw,  # type: ignore[arg-type]
    )
    svc.store.extras.setdefault("repositories", {})[1] = repo
    table = projects(svc.store)
    table.update(table.get(1), empty_repo=False)
    return svc


def median_ms(action: Callable[[int], object], repeat: int) -> float:
    samples = []
    for index in range(repeat):
        start = time.perf_counter()
        action(index)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def history_figures(svc: FakeService) -> dict[str, float]:
    base = "/projects/1/repository"

    def get(path: str) -> Callable[[int], object]:
        def call(_index: int) -> object:
            response = svc.request("GET", base + path, token=TOKEN)
            assert response.status == 200, (path, response.status, response.body[:200])
            return response

        return call

    readme = get("/files/README.md?ref=main")
    snapshot = svc.snapshot()

    def cold(_index: int) -> object:
        svc.restore(snapshot)
        gc.collect()  # the restore's garbage, not the read's
        start = time.perf_counter()
        readme(0)
        return time.perf_counter() - start

    first_reads = [cold(i) * 1000 for i in range(21)]
    after_commit = []
    for index in range(60):
        body = {"branch": "main", "content": "x", "commit_message": "m"}
        svc.request("POST", f"{base}/files/bench{index}.txt", token=TOKEN, json_body=body)
        after_commit.append(median_ms(readme, 1))
    return {
        "file GET after a commit": statistics.median(after_commit),
        "first file GET after a restore": statistics.median(first_reads),
        "commits?path=README.md": median_ms(get("/commits?path=README.md"), 50),
        "blame of a file": median_ms(get("/files/docs%2Fa.md/blame?ref=main"), 50),
        "tree listing": median_ms(get("/tree?path=src"), 50),
    }


def history_rows() -> list[Row]:
    small = history_figures(history_service(50))
    rows = []
    for size, label in ((3000, "3,000"), (20_000, "20,000")):
        big = history_figures(history_service(size))
        for name, value in big.items():
            rows.append(
                ratio_row(
                    "history",
                    f"{name}, {label} commits",
                    value,
                    small[name],
                    "ms",
                    "50 commits",
                    1.5,
                )
            )
        if size == 20_000:
            rows.append(
                Row(
                    "history",
                    "file GET, 20,000 commits",
                    big["file GET after a commit"],
                    "ms",
                    target=2.0,
                )
            )
    return rows


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def requests_rss(counts: tuple[int, ...] = (5_000, 50_000)) -> list[float]:
    """Resident MB after each count of requests (reads, and rewrites of one user)."""
    svc = FakeService()
    paths = ["/user", "/projects/1", "/users/2", "/projects/1/repository/branches"]
    done, found = 0, []
    for count in counts:
        for index in range(done, count):
            if index % 10 == 9:
                body = {"bio": f"bio {index}"}
                svc.request("PUT", "/users/2", token=TOKEN, json_body=body)
            else:
                svc.request("GET", paths[index % len(paths)], token=TOKEN)
        done = count
        gc.collect()
        found.append(rss_mb())
    return found


def memory_rows() -> list[Row]:
    code = "import bench_scale, json; print(json.dumps(bench_scale.requests_rss()))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=str(Path(__file__).parent),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    small, big = json.loads(out.strip().splitlines()[-1])
    return [Row("memory", "RSS growth, 5,000 to 50,000 requests", big - small, "MB", target=50.0)]


def state_of_size(megabytes: int) -> FakeService:
    """The default scenario plus repository objects, ``megabytes`` of state in all."""
    svc = FakeService()
    repo = Repository("main")
    chunk = 1 << 20
    for index in range(megabytes):
        data = index.to_bytes(8, "big") * (chunk // 8)
        repo.object_store.raw[f"{index:040x}".encode()] = (3, data)
    svc.store.extras.setdefault("repositories", {})[2] = repo
    return svc


def write_cost(megabytes: int, folder: Path) -> tuple[float, float]:
    """(median ms of a small write with the state file attached, the file's MB)."""
    from fakeservice.control.statefile import Persister

    svc = state_of_size(megabytes)
    path = folder / f"{megabytes}.state"
    svc.add_hooks(after=Persister(svc, path))

    def write(index: int) -> object:
        body = {"bio": f"bio {index}"}
        return svc.request("PUT", "/users/2", token=TOKEN, json_body=body)

    write(-1)  # the first write saves the whole state
    size = path.stat().st_size / 2**20
    return median_ms(write, 200), size


def persistence_rows() -> list[Row]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        small, small_mb = write_cost(3, Path(folder))
        big, big_mb = write_cost(300, Path(folder))
    return [
        ratio_row(
            "persistence",
            f"small write, {big_mb:.0f} MB state file",
            big,
            small,
            "ms",
            f"{small_mb:.0f} MB",
            2.0,
        )
    ]


ROOT = {"username": "root", "admin": True, "tokens": [{"token": TOKEN, "scopes": ["api"]}]}


def traced_bytes(make: Callable[[], object]) -> int:
    """Bytes still allocated (tracemalloc) after ``make()``, its result kept."""
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = make()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del kept
    return after - before


def scenario_of(users: int = 0, projects: int = 0) -> dict[str, object]:
    doc: dict[str, object] = {"users": [ROOT], "groups": [{"path": "g"}]}
    if users:
        doc["users"] = [ROOT, {"generate": users, "username": "u{n:06d}"}]
    if projects:
        doc["projects"] = [{"generate": projects, "path": "g/p{n:06d}"}]
    return doc


def per_request(count: int, request: Callable[[FakeService, int], None]) -> float:
    svc = FakeService(journal_capacity=1)
    for index in range(5):
        request(svc, -1 - index)

    def run() -> None:
        for index in range(count):
            request(svc, index)

    return traced_bytes(run) / count


def pipeline(svc: FakeService, _index: int) -> None:
    answer = svc.request("POST", "/projects/1/pipeline", token=TOKEN, json_body={"ref": "main"})
    assert answer.status == 201, answer.body


def file_commit(svc: FakeService, index: int) -> None:
    body = {"branch": "main", "content": f"{index}", "commit_message": "m"}
    path = f"/projects/1/repository/files/bench%2Fdeep%2Fer%2Ff{index + 10}.txt"
    answer = svc.request("POST", path, token=TOKEN, json_body=body)
    assert answer.status == 201, answer.body


def wide_commit_bytes(width: int, count: int = 100) -> float:
    """Traced bytes per file commit (through the API) adding a file to a directory of
    ``width`` entries."""
    repo = Repository("main")
    files = [Action("create", f"wide/f{n:05d}.txt", b"x\n") for n in range(width)]
    when = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    repo.commit("main", files, message="w", author_name="a", author_email="a@x", when=when)
    svc = with_repository(repo, journal_capacity=1)

    def commit(index: int) -> None:
        body = {"branch": "main", "content": f"{index}", "commit_message": "m"}
        path = f"/projects/1/repository/files/wide%2Fnew{index + 10}.txt"
        answer = svc.request("POST", path, token=TOKEN, json_body=body)
        assert answer.status == 201, answer.body

    for index in range(5):
        commit(-1 - index)

    def run() -> None:
        for index in range(count):
            commit(index)

    return traced_bytes(run) / count


def wide_rows() -> list[Row]:
    small, big = wide_commit_bytes(10), wide_commit_bytes(10_000, 20)
    return [
        ratio_row(
            "records",
            "per file commit, directory of 10,000 entries",
            big / 1024,
            small / 1024,
            "KB",
            "10 entries",
            1.5,
        )
    ]


def record_rows() -> list[Row]:
    FakeService(scenario_of(users=10, projects=10))  # warm-up: one-time allocations
    empty = traced_bytes(lambda: FakeService(scenario_of()))
    user = (traced_bytes(lambda: FakeService(scenario_of(users=2000))) - empty) / 2000
    project = (traced_bytes(lambda: FakeService(scenario_of(projects=500))) - empty) / 500
    return [
        Row("records", "per user", user / 1024, "KB", target=2.0),
        Row("records", "per project", project / 1024, "KB", target=4.0),
        Row(
            "records", "per three-job pipeline", per_request(200, pipeline) / 1024, "KB", target=6.0
        ),
        Row("records", "per file commit (depth 4)", per_request(200, file_commit) / 1024, "KB"),
    ]


def big_scenario_rows() -> list[Row]:
    import tempfile

    import yaml

    doc = scenario_of()
    doc["users"] = [ROOT, *({"username": f"u{n:05d}"} for n in range(9_999))]
    doc["projects"] = [{"path": f"g/p{n:04d}"} for n in range(1_000)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.yaml"
        path.write_text(yaml.safe_dump(doc), encoding="utf-8")
        start = time.perf_counter()
        FakeService(path)
        seconds = time.perf_counter() - start
    rows = [
        Row("big scenarios", "load 10,000 users + 1,000 projects (YAML)", seconds, "s", target=3.0)
    ]
    return rows + paging_rows()


PAGES = ((0, "first page"), (1, "middle page"), (2, "last page"))


def paging_rows() -> list[Row]:
    """The first, a middle and the last page of 20 of each list at ``BIG_ROWS`` records
    against 100 (the big states built through the store's bulk fast path)."""
    rows = []
    label = f"{BIG_ROWS:,}"
    for kind, path in LISTS:
        small = page_costs(kind, path, 100)
        big = page_costs(kind, path, BIG_ROWS)
        if kind == "jobs":
            _BUILT.clear()
        for position, name in PAGES:
            how = " (keyset)" if kind in KEYSET else ""
            rows.append(
                ratio_row(
                    "big scenarios",
                    f"{kind} {name}{how}, {label} records",
                    big[position],
                    small[position],
                    "ms",
                    "100 records",
                    1.5,
                )
            )
    return rows


# FAKESERVICE_BENCH_ROWS=100000 for a quicker run; ``make bench`` uses 1,000,000
BIG_ROWS = int(os.environ.get("FAKESERVICE_BENCH_ROWS", "1000000"))
LISTS = (
    ("users", "/users"),
    ("projects", "/projects"),
    ("pipelines", "/projects/1/pipelines"),
    ("jobs", "/projects/1/jobs"),
)


def grown(svc: FakeService, kind: str, model: Any, size: int, vary: Vary) -> FakeService:
    """``svc`` with its table ``kind`` grown to ``size`` records: copies of ``model``
    with the fields ``vary(n)`` gives, inserted through the store's bulk path (a copy
    costs one constructor call: ``attrs.evolve`` introspects on every call)."""
    import attrs

    table, store = svc.store.tables[kind], svc.store
    base = {f.name: getattr(model, f.name) for f in attrs.fields(type(model))}
    make = type(model)
    table.bulk_insert(
        make(**{**base, "id": store.next_id(kind), **vary(n)}) for n in range(size - len(table))
    )
    return svc


Vary = Callable[[int], dict[str, Any]]


def with_users(size: int) -> FakeService:
    """A service with ``size`` users: root, one made through the scenario, and copies."""
    svc = FakeService(scenario_of(users=1))
    model = svc.store.tables["users"].by("username", "u000001")

    def vary(n: int) -> dict[str, Any]:
        name = f"v{n:07d}"
        return {"username": name, "name": f"User {n}", "email": f"{name}@example.com"}

    return grown(svc, "users", model, size, vary)


def with_projects(size: int) -> FakeService:
    """A service with ``size`` projects in group ``g``: one made through the scenario
    and copies."""
    svc = FakeService(scenario_of(projects=1))
    model = projects(svc.store).by("full_path", "g/p000001")

    def vary(n: int) -> dict[str, Any]:
        path = f"q{n:07d}"
        return {
            "name": path,
            "path": path,
            "path_with_namespace": f"g/{path}",
            "name_with_namespace": f"g / {path}",
        }

    return grown(svc, "projects", model, size, vary)


def with_pipelines(size: int) -> FakeService:
    """The default scenario plus ``size`` pipelines of one job each on acme/website,
    inserted through the store's bulk path."""
    from fakeservice.ci.models import Job, Pipeline, jobs, pipelines

    svc = FakeService()
    sha = svc.request("GET", "/projects/1/repository/branches/main", token=TOKEN).json()
    sha = sha["commit"]["id"]
    store, now = svc.store, svc.now()
    made_pipelines, made_jobs = [], []
    for _ in range(size):
        pid = store.next_id("ci_pipelines")
        iid = store.next_iid("ci_pipelines", 1)
        made_pipelines.append(
            Pipeline(pid, iid, 1, "main", sha, sha, False, "push", now, now, status="success")
        )
        jid = store.next_id("ci_jobs")
        made_jobs.append(Job(jid, 1, pid, "build", "build", 0, "main", sha, False, now))
    pipelines(store).bulk_insert(made_pipelines)
    jobs(store).bulk_insert(made_jobs)
    return svc


KEYSET = frozenset({"projects"})
LISTED: dict[str, Callable[[FakeService], int]] = {
    "users": lambda svc: len(svc.store.tables["users"]),
    "projects": lambda svc: len(svc.store.tables["projects"]),
    "pipelines": lambda svc: len(svc.store.tables["ci_pipelines"].sorted["roots_by_id"].part(1)),
    "jobs": lambda svc: len(svc.store.tables["ci_jobs"].sorted["builds_by_project"].part(1)),
}
_BUILT: dict[tuple[Callable[[int], FakeService], int], FakeService] = {}
BUILDERS: dict[str, Callable[[int], FakeService]] = {
    "users": with_users,
    "projects": with_projects,
    "pipelines": with_pipelines,
    "jobs": with_pipelines,
}


def page_costs(kind: str, path: str, size: int) -> tuple[float, float, float]:
    """Median ms of the first, a middle and the last page of 20 with ``size`` records."""
    builder = BUILDERS[kind]
    svc = _BUILT.get((builder, size))
    if svc is None:  # pipelines and jobs share one state of each size
        if any(made is not builder for made, _size in _BUILT):
            _BUILT.clear()
        svc = _BUILT[(builder, size)] = builder(size)
    head = svc.request("GET", f"{path}?per_page=20", token=TOKEN)
    assert head.status == 200, head.body[:300]
    total = LISTED[kind](svc)  # X-Total is left out past 10,000 records
    assert total >= size, (kind, total, size)
    last = max(1, -(-total // 20))
    numbers = (1, max(1, last // 2), last)

    def page(number: int) -> Callable[[int], object]:
        url = f"{path}?per_page=20&page={number}"
        if kind in KEYSET:  # offset pagination stops at 50,000 for these
            after = f"&id_after={(number - 1) * 20}" if number > 1 else ""
            url = f"{path}?pagination=keyset&per_page=20&order_by=id&sort=asc{after}"

        def call(_index: int) -> object:
            answer = svc.request("GET", url, token=TOKEN)
            assert answer.status == 200, answer.body[:300]
            assert answer.body.startswith(b"[{"), (url, answer.body[:100])
            return answer

        return call

    return tuple(median_ms(page(number), 50) for number in numbers)  # type: ignore[return-value]


def bench_rows() -> list[Row]:
    return (
        isolation_rows()
        + history_rows()
        + memory_rows()
        + persistence_rows()
        + record_rows()
        + wide_rows()
        + big_scenario_rows()
    )


if __name__ == "__main__":
    from table import render

    print(render(bench_rows()))
