"""The ``fakeservice`` command: check, replay, openapi and serve (with a state file)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from fakeservice.cli import main

GOOD = """\
extends: default
steps:
  - request: {path: /user, as: root}
    expect: {status: 200, json: {username: root}}
"""
FAILING = """\
extends: default
steps:
  - name: expects the wrong user
    request: {path: /user, as: root}
    expect: {json: {username: alice}}
  - request: {path: /version}
    expect: {status: 401}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.yaml", GOOD)
    bad = write(tmp_path, "bad.yaml", "users:\n  - username: x\n    admim: true\n")
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out == f"OK {good}\n"
    assert main(["check", str(good), str(bad), str(tmp_path / "none.yaml")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"OK {good}"
    assert out[1] == f"{bad}:3: users[0].admim: unknown key 'admim' (did you mean 'admin'?)"
    assert out[2].startswith(f"{tmp_path / 'none.yaml'}: no scenario file")


def test_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.yaml", GOOD)
    failing = write(tmp_path, "failing.yaml", FAILING)
    assert main(["replay", str(good)]) == 0
    assert capsys.readouterr().out == f"PASS {good} (1 step)\n1 passed, 0 failed\n"
    assert main(["replay", str(good), str(failing)]) == 1
    out = capsys.readouterr().out
    assert out == (
        f"PASS {good} (1 step)\n"
        f"FAIL {failing} (1 of 2 steps failed)\n"
        "  FAIL step 1 'expects the wrong user' (line 3)\n"
        '      $.username: expected "alice", got "root"\n'
        "1 passed, 1 failed\n"
    )
    assert main(["replay", "-v", "-x", str(failing)]) == 1
    assert "ok  step" not in capsys.readouterr().out
    assert main(["replay", "-v", str(good)]) == 0
    assert "  ok  step 1 'GET /user' (line 3)" in capsys.readouterr().out


def test_replay_of_the_library_via_the_console_script() -> None:
    library = sorted(
        str(p) for p in (Path(__file__).resolve().parents[2] / "scenarios").glob("*.yaml")
    )
    done = subprocess.run(
        [sys.executable, "-m", "fakeservice.cli", "replay", *library],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"{len(library)} passed, 0 failed"


def test_openapi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openapi"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    users = paths["/api/v4/users"]["get"]
    assert users["security"][0] == {}
    names = {p["name"] for p in users["parameters"]}
    assert {"page", "per_page", "username", "order_by"} <= names
    assert "X-Total" in users["responses"]["200"]["headers"]
    project = paths["/api/v4/projects/{id}"]["get"]
    assert project["parameters"][0] == {
        "name": "id",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
    }
    create = paths["/api/v4/projects"]["post"]["requestBody"]["content"]["application/json"][
        "schema"
    ]
    assert create["properties"]["visibility"]["enum"] == ["internal", "private", "public"]
    control = paths["/_fake/faults"]["post"]
    assert control["tags"] == ["control"] and control["security"] == []
    assert control["requestBody"]["content"]["application/json"]["schema"]["required"] == ["path"]
    assert paths["/_fake/clock"]["post"]["description"].startswith(
        "Parameter rules: seconds, to: mutually exclusive"
    )
    ids = [op["operationId"] for item in paths.values() for op in item.values()]
    assert len(ids) == len(set(ids))
    output = tmp_path / "openapi.json"
    assert main(["openapi", "--output", str(output), "--server-url", "http://h:1"]) == 0
    assert json.loads(output.read_text())["servers"] == [{"url": "http://h:1"}]


class Served:
    """``fakeservice serve`` in a subprocess; the first lines of its output."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fakeservice.cli", "serve", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        assert self.process.stdout is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.lines.append(line.rstrip("\n"))
            if line.startswith(("administrator token", "the scenario has no administrator")):
                break
        self.url = self.lines[0].rsplit(" ", 1)[-1] if self.lines else ""
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                httpx.get(self.url + "/_fake/clock", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


def test_serve_prints_the_url_and_tokens_and_persists_state(tmp_path: Path) -> None:
    state = tmp_path / "state" / "fake.state"
    state.parent.mkdir()
    first = Served("--state-file", str(state))
    try:
        assert first.lines[0].startswith("fakeservice listening on http://127.0.0.1:")
        assert "administrator token: root-token (user root)" in first.lines
        assert state.exists()
        headers = {"PRIVATE-TOKEN": "root-token"}
        made = httpx.post(first.url + "/api/v4/projects", headers=headers, json={"name": "kept"})
        assert made.status_code == 201
        saved_at = state.stat().st_mtime_ns
        httpx.get(first.url + "/api/v4/projects/root%2Fkept", headers=headers)
        assert state.stat().st_mtime_ns == saved_at
        httpx.post(first.url + "/_fake/clock", json={"seconds": 3600})
    finally:
        first.stop()
    assert [p.name for p in state.parent.iterdir()] == ["fake.state"]
    second = Served("--state-file", str(state), "--clock", "frozen")
    try:
        kept = httpx.get(
            second.url + "/api/v4/projects/root%2Fkept", headers={"PRIVATE-TOKEN": "root-token"}
        )
        assert kept.status_code == 200
        clock = httpx.get(second.url + "/_fake/clock").json()
        assert (clock["now"], clock["mode"]) == ("2026-01-01T10:00:00Z", "frozen")
    finally:
        second.stop()


def test_serve_refuses_a_bad_scenario(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.yaml", "users: [{usernme: x}]\n")
    done = subprocess.run(
        [sys.executable, "-m", "fakeservice.cli", "serve", "--port", "0", "--scenario", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "unknown key 'usernme'" in done.stderr


def test_serve_refuses_a_damaged_state_file(tmp_path: Path) -> None:
    state = write(tmp_path, "fake.state", "not a state file")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fakeservice.cli",
            "serve",
            "--port",
            "0",
            "--state-file",
            str(state),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    assert done.returncode == 2
    assert "is not a fakeservice state file" in done.stderr
