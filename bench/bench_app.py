"""Loopback throughput of the fake's Starlette app against bare Starlette apps.

Three servers answer the same payload (the fake's answer to ``GET /api/v4/version`` with
the administrator's token) through uvicorn with the same settings, each in its own server
process; this process only drives the load: ``CONNECTIONS`` keep-alive connections from
one asyncio loop, in rounds that alternate between the servers. It reports, for each,
the requests answered per CPU second of its server process (user + system time from
``/proc``: what a server can do with a core to itself, steady on a shared machine), the
best round's requests per second (wall clock, noisy when other processes compete for the
cores), and the fake's ratio to each.

* ``fake``: ``FakeService().app``, the Starlette application (the API Mount's app is the
  raw dispatch), as ``fakeservice serve`` runs it: a repeated read is answered again from
  the answer it last got while nothing moved (:mod:`fakeservice.web.answers`);
* ``fake-run-every``: the same with that turned off (``svc.answers.enabled = False``):
  every request runs the whole dispatch (routing, authentication, the handler, the
  journal), which is what a request after a write costs;
* ``starlette-route``: a bare Starlette app with one ``Route`` whose endpoint does the same
  work the usual way (Starlette ``Request``, ``await request.body()``, the service's
  dispatch, a Starlette ``Response``): the same payload, the same service behind it;
* ``static``: a bare Starlette app returning the payload's bytes from a ``Route``, no
  service at all (the floor: the fake's own work is the rest of the difference).

Run: ``python bench/bench_app.py`` (exit 1 when the fake answers fewer requests per CPU
second than the ``static`` app, the issue's floor, or when running every request is
slower than the ``starlette-route`` app).
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import attrs

PATH = "/api/v4/version"
TOKEN = "root-token"
HOST = "fakeservice.bench"  # sent to both, so the fake's links are the same every time
CONNECTIONS = 4
ROUND_SECONDS = 1.5
ROUNDS = 7


# -- the servers (run in their own processes) ---------------------------------------------
def serve(kind: str, port: int, payload_file: str) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from fakeservice import FakeService
    from fakeservice.testing.server import FakeServer, listening_socket, uvicorn_config

    sock = listening_socket("127.0.0.1", port)
    if kind in ("fake", "fake-run-every"):
        service = FakeService()
        service.answers.enabled = kind == "fake"
        FakeServer(service, uvicorn_config(service, log_level="warning")).run(sockets=[sock])
        return
    payload = Path(payload_file).read_bytes()

    async def static(request: Request) -> Response:
        return Response(payload, media_type="application/json")

    app = Starlette(routes=[Route(PATH, static)])
    if kind == "starlette-route":
        app = Starlette(routes=[Route(PATH, service_route(FakeService()))])
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        timeout_keep_alive=30,
        date_header=False,
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])


def service_route(service: Any) -> Callable[[Any], Awaitable[Any]]:
    """A Starlette endpoint answering with the service's dispatch, the conventional way."""
    from starlette.requests import Request
    from starlette.responses import Response

    from fakeservice.web.http import Request as FakeRequest

    async def endpoint(request: Request) -> Response:
        body = await request.body()
        answer = service.handle(
            FakeRequest(
                method=request.method,
                raw_path=request.scope["raw_path"].decode("latin-1"),
                query_string=request.scope["query_string"].decode("latin-1"),
                headers={k.lower(): v for k, v in request.headers.items()},
                body=body,
                host=request.headers.get("host", "localhost"),
            )
        )
        headers = [(k.lower().encode(), v.encode()) for k, v in answer.headers]
        response = Response(answer.body, status_code=answer.status)
        response.raw_headers = [*headers, *response.raw_headers]
        return response

    return endpoint


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(kind: str, payload_file: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, __file__, "serve", kind, str(port), payload_file],
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"the {kind} server did not start")


# -- the load ------------------------------------------------------------------------------
REQUEST = (
    f"GET {PATH} HTTP/1.1\r\nHost: {HOST}\r\nPRIVATE-TOKEN: {TOKEN}\r\n"
    "Accept: application/json\r\n\r\n"
).encode()


async def one_connection(port: int, until: float, expected: bytes) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    done = 0
    try:
        while time.perf_counter() < until:
            writer.write(REQUEST)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = await reader.readexactly(length)
            if not head.startswith(b"HTTP/1.1 200") or body != expected:
                raise RuntimeError(f"unexpected answer: {head[:40]!r}")
            done += 1
    finally:
        writer.close()
    return done


async def load(port: int, seconds: float, expected: bytes) -> tuple[int, float]:
    """Requests answered and the seconds it took."""
    until = time.perf_counter() + seconds
    started = time.perf_counter()
    counts = await asyncio.gather(
        *(one_connection(port, until, expected) for _ in range(CONNECTIONS))
    )
    return sum(counts), time.perf_counter() - started


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process has used (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@attrs.define
class Tally:
    """One server's rounds: requests/s of each, and its CPU seconds over all requests."""

    rates: list[float] = attrs.Factory(list)
    requests: int = 0
    cpu: float = 0.0

    def measure(self, pid: int, port: int, payload: bytes) -> None:
        cpu = cpu_seconds(pid)
        count, seconds = asyncio.run(load(port, ROUND_SECONDS, payload))
        self.cpu += cpu_seconds(pid) - cpu
        self.requests += count
        self.rates.append(count / seconds)

    @property
    def per_cpu_second(self) -> float:
        return self.requests / self.cpu


def fetch(port: int) -> bytes:
    """The fake's answer, exactly as it sends it over this connection (links included)."""
    import requests

    answer = requests.get(
        f"http://127.0.0.1:{port}{PATH}", headers={"PRIVATE-TOKEN": TOKEN, "Host": HOST}
    )
    answer.raise_for_status()
    return answer.content


def main() -> int:
    tallies, payload = measure()
    return report(tallies, payload)


def bench_rows() -> list[Any]:
    """For ``make bench``: server CPU microseconds per request, the fake's against the
    bare static app (the floor) and, running every request, against the route app."""
    from table import Row

    tallies, _ = measure()

    def micros(kind: str) -> float:
        return 1e6 / tallies[kind].per_cpu_second

    fake, every = micros("fake"), micros("fake-run-every")
    static, route = micros("static"), micros("starlette-route")
    return [
        Row(
            "served app",
            f"server CPU per repeated read (GET {PATH}, uvicorn)",
            fake,
            "µs",
            fake / static,
            "bare Starlette app, fixed bytes",
            1.0,
        ),
        Row(
            "served app",
            "server CPU per read, every request run",
            every,
            "µs",
            every / route,
            "same service behind a Starlette Route",
            1.0,
        ),
    ]


def measure() -> tuple[dict[str, Tally], bytes]:
    """The servers' tallies over ``ROUNDS`` alternating rounds, and the payload."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        pass
    servers = {"fake": start("fake", handle.name)}
    payload = fetch(servers["fake"][1])
    Path(handle.name).write_bytes(payload)
    for kind in ("fake-run-every", "starlette-route", "static"):
        servers[kind] = start(kind, handle.name)
    tallies = {kind: Tally() for kind in servers}
    try:
        for _, port in servers.values():  # warm up
            asyncio.run(load(port, 0.5, payload))
        for _ in range(ROUNDS):
            for kind, (process, port) in servers.items():
                tallies[kind].measure(process.pid, port, payload)
    finally:
        for process, _ in servers.values():
            process.terminate()
            process.wait(timeout=10)
        Path(handle.name).unlink()
    return tallies, payload


def report(tallies: dict[str, Tally], payload: bytes) -> int:
    fake = tallies["fake"]
    print(f"GET {PATH} ({len(payload)} bytes), {CONNECTIONS} keep-alive connections, uvicorn")
    print(
        f"{'server':16} {'req/CPU-s':>9} {'fake / it':>9} {'best req/s':>10} {'fake / it':>9}"
        "  req/s per round"
    )
    for kind, tally in tallies.items():
        best = max(tally.rates)
        rounds = " ".join(f"{rate:.0f}" for rate in tally.rates)
        print(
            f"{kind:16} {tally.per_cpu_second:>9.0f} "
            f"{fake.per_cpu_second / tally.per_cpu_second:>9.2f} {best:>10.0f} "
            f"{max(fake.rates) / best:>9.2f}  {rounds}"
        )
    floor = fake.per_cpu_second / tallies["static"].per_cpu_second
    verdict = "ok" if floor >= 1 else "SLOWER than a bare Starlette app serving the payload"
    print(f"fake / static, requests per server CPU second: {floor:.2f} ({verdict})")
    every = tallies["fake-run-every"].per_cpu_second
    route = every / tallies["starlette-route"].per_cpu_second
    verdict = "ok" if route >= 1 else "SLOWER than the same service behind a Starlette route"
    print(f"fake-run-every / starlette-route: {route:.2f} ({verdict})")
    return 0 if floor >= 1 and route >= 1 else 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        sys.exit(0)
    sys.exit(main())
