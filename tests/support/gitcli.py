"""The git command line for tests that clone and push over HTTP: a clean environment
(no system config, no prompts, no credential helper) with Alice as author."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git(home: Path, *args: str, cwd: Path | None = None) -> str:
    """Run ``git args`` with ``home`` as HOME; its stdout, stripped (fails the test on error)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(
        HOME=str(home),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_AUTHOR_NAME="Alice",
        GIT_AUTHOR_EMAIL="alice@example.com",
        GIT_COMMITTER_NAME="Alice",
        GIT_COMMITTER_EMAIL="alice@example.com",
    )
    done = subprocess.run(
        ["git", "-c", "credential.helper=", *args],
        cwd=cwd or home,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
