"""Text formats of git data: commit titles, blame lines, identities, dates and modes."""

from __future__ import annotations

import datetime as dt

from fakeservice.repository.engine.constants import MODE_DIR, MODE_SUBMODULE
from fakeservice.repository.engine.paths import enc


def commit_title(message: str) -> str:
    """The API's commit ``title``: the first line, shortened as the real service does."""
    if not message.strip():
        return "No commit message"
    full = message.replace("\r", "\n").split("\n", 1)[0]
    if len(full) < 100:
        return full
    room = 80
    stop = full.rfind(" ", 0, room + 1)
    return full[: stop if stop != -1 else room] + "…"


def split_lines(content: bytes) -> list[str]:
    """Lines of a file as blame shows them: split on ``\\n``, no terminators."""
    if not content:
        return []
    lines = content.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def ident(name: str, email: str) -> bytes:
    def clean(text: str) -> str:
        return "".join(c for c in text if c not in "<>\n").strip()

    return enc(f"{clean(name)} <{clean(email)}>")


def parse_ident(raw: bytes) -> tuple[str, str]:
    text = raw.decode("utf-8", "replace")
    name, sep, rest = text.rpartition(" <")
    if not sep:
        return text.strip(), ""
    return name.strip(), rest.rstrip(">").strip()


def at_time(timestamp: int, offset: int) -> dt.datetime:
    zone = dt.timezone(dt.timedelta(seconds=offset))
    return dt.datetime.fromtimestamp(timestamp, tz=zone)


def mode_text(mode: int | None) -> str:
    return "0" if mode is None else f"{mode:06o}"


def entry_type(mode: int) -> str:
    if mode == MODE_DIR:
        return "tree"
    if mode == MODE_SUBMODULE:
        return "commit"
    return "blob"
