"""A small, deliberate renderer for the one-line markdown of user status messages
(``message_html``), as the real service renders them: the text HTML-escaped, then
inline code, links, bold, italics and strike-through; no block elements, no raw HTML,
only ``http(s)`` and ``mailto`` links (others stay text)."""

from __future__ import annotations

import html
import re

_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_SAFE_SCHEME = re.compile(r"(https?://|mailto:)", re.IGNORECASE)
_SLOT = "\x00{}\x00"


def render_inline(text: str) -> str:
    """``text`` (one line of markdown) as HTML."""
    slots: list[str] = []

    def keep(fragment: str) -> str:
        slots.append(fragment)
        return _SLOT.format(len(slots) - 1)

    escaped = html.escape(text.replace("\x00", ""), quote=True)
    out = _CODE.sub(lambda m: keep(f"<code>{m.group(1)}</code>"), escaped)

    def link(match: re.Match[str]) -> str:
        label, target = match.group(1), html.unescape(match.group(2))
        if not _SAFE_SCHEME.match(target):
            return match.group(0)
        href = html.escape(target, quote=True)
        return keep(
            f'<a href="{href}" rel="nofollow noreferrer noopener" target="_blank">{label}</a>'
        )

    out = _LINK.sub(link, out)
    out = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", out)
    out = _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", out)
    out = _STRIKE.sub(lambda m: f"<del>{m.group(1)}</del>", out)
    for _ in range(2):  # a slot may hold another (a link's label with code)
        out = re.sub("\x00(\\d+)\x00", lambda m: slots[int(m.group(1))], out)
    return out
