"""The ``fakeservice`` command: ``serve``, ``replay``, ``check`` and ``openapi``.

* ``fakeservice serve [--scenario FILE] [--host H] [--port P] [--state-file PATH]
  [--clock manual|real|frozen] [--cors-origin ORIGIN]...``: prints the base URL, the
  dashboard's URL and the administrator tokens, then serves until interrupted. With
  ``--state-file`` the state is restored from the file when it exists and saved
  (atomically) after each state-changing request. ``--cors-origin`` (repeatable, ``*``
  for any) lets browser clients on that origin call the fake.
* ``fakeservice replay FILE...``: runs each scenario's steps; exit 0 only if all pass.
* ``fakeservice check FILE...``: validates scenarios; exit 0 only if none has a problem.
* ``fakeservice openapi``: prints the OpenAPI 3.1 document as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from fakeservice.core.clock import CLOCK_MODES
from fakeservice.web.vendor_headers import HeaderPrefixError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fakeservice", description="An in-memory fake of the service's REST API v4."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the fake on a local port")
    serve.add_argument("--scenario", default="default", help="scenario file or built-in name")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8080, help="port (0: any free port)")
    serve.add_argument("--state-file", type=Path, help="restore from and save the state to PATH")
    serve.add_argument("--clock", choices=CLOCK_MODES, help="clock mode (default: the scenario's)")
    serve.add_argument(
        "--header-prefix",
        help="vendor header prefix (default X-Service- as in the spec; X-Gitlab- for real clients)",
    )
    serve.add_argument("--log-level", default="warning", help="uvicorn log level")
    serve.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="allow browser clients from ORIGIN (repeatable; * for any origin)",
    )
    serve.add_argument(
        "--journal-size",
        type=_journal_size,
        metavar="N",
        help="requests the journal keeps, oldest forgotten first (default: the scenario's, 10000)",
    )

    replay = sub.add_parser("replay", help="run scenarios' steps and check their expectations")
    replay.add_argument("files", nargs="+", type=Path, metavar="FILE")
    replay.add_argument("-v", "--verbose", action="store_true", help="list passing steps too")
    replay.add_argument(
        "-x", "--fail-fast", action="store_true", help="stop a file at its first failure"
    )

    check = sub.add_parser("check", help="validate scenario files")
    check.add_argument("files", nargs="+", type=Path, metavar="FILE")

    openapi = sub.add_parser("openapi", help="print the OpenAPI 3.1 document")
    openapi.add_argument("--server-url", default="http://127.0.0.1:8080")
    openapi.add_argument("--output", type=Path, help="write to a file instead of stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command = {"serve": serve, "replay": replay, "check": check, "openapi": openapi}
    return command[args.command](args)


def _journal_size(text: str) -> int:
    from fakeservice.control.journal import MAX_CAPACITY

    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_CAPACITY:
        raise argparse.ArgumentTypeError(f"a whole number from 1 to {MAX_CAPACITY}")
    return value


# -- serve -----------------------------------------------------------------------------------
def serve(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from fakeservice.control.statefile import StateFileError
    from fakeservice.scenarios.problems import ScenarioError
    from fakeservice.service import FakeService
    from fakeservice.testing.server import FakeServer, listening_socket, uvicorn_config

    try:
        sock = listening_socket(args.host, args.port)
    except OSError as exc:
        print(
            f"fakeservice: cannot listen on {args.host}:{args.port}: {exc.strerror}",
            file=sys.stderr,
        )
        return 2
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{port}"
    try:
        service = FakeService(
            args.scenario,
            base_url=url,
            cors_origins=args.cors_origin,
            journal_capacity=args.journal_size,
            header_prefix=args.header_prefix,
        )
        if args.state_file is not None:
            if args.state_file.exists():
                service.load_state(args.state_file)
            else:
                service.save_state(args.state_file)
            service.persist_to(args.state_file)
        if args.clock:
            service.set_clock_mode(args.clock)
    except (ScenarioError, StateFileError, HeaderPrefixError) as exc:
        sock.close()
        print(f"fakeservice: {exc}", file=sys.stderr)
        return 2
    print(f"fakeservice listening on {url}", file=out)
    print(f"API: {url}/api/v4   control plane: {url}/_fake/", file=out)
    print(f"dashboard: {url}/_fake/dashboard", file=out)
    if service.cors.origins:
        print(f"CORS allowed for: {' '.join(service.cors.origins)}", file=out)
    tokens = service.admin_tokens()
    for username, token in tokens:
        print(f"administrator token: {token} (user {username})", file=out)
    if not tokens:
        print("the scenario has no administrator with an API token", file=out)
    if args.state_file is not None:
        print(f"state file: {args.state_file}", file=out)
    out.flush()
    config = uvicorn_config(service, log_level=args.log_level)
    FakeServer(service, config).run(sockets=[sock])
    return 0


# -- replay and check ------------------------------------------------------------------------
def replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from fakeservice.scenarios.replay import replay as run

    results = [run(path, fail_fast=args.fail_fast) for path in args.files]
    for result in results:
        print(result.report(verbose=args.verbose), file=out)
    passed = sum(result.ok for result in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed", file=out)
    return 0 if failed == 0 else 1


def check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from fakeservice.scenarios.check import check as validate

    bad = 0
    for path in args.files:
        problems = validate(path)
        if problems:
            bad += 1
            for problem in problems:
                print(problem if problem.file else f"{path}: {problem}", file=out)
        else:
            print(f"OK {path}", file=out)
    return 0 if bad == 0 else 1


# -- openapi ---------------------------------------------------------------------------------
def openapi(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from fakeservice.areas import compose
    from fakeservice.web.openapi import openapi_document

    endpoints = compose().router.endpoints
    text = json.dumps(openapi_document(endpoints, server_url=args.server_url), indent=2) + "\n"
    if args.output is not None:
        args.output.write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
