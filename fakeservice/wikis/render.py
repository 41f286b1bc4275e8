"""``render_html``: a page's content as HTML.

The real service renders through its full markup pipelines; the fake renders the
common part of markdown deterministically (ATX headings, paragraphs, fenced code,
``**bold**``, ``*emphasis*``, ``` `code` ``` and ``[links](url)``), with every text
escaped and the service's ``data-sourcepos``/``dir`` attributes on blocks. Other formats
are rendered as escaped paragraphs.
"""

from __future__ import annotations

import html
import re

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"\*([^*]+)\*"), r"<em>\1</em>"),
    (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>'),
)
_ANCHOR_DROP = re.compile(r"[^\w\- ]")


def _inline(text: str) -> str:
    out = html.escape(text, quote=True)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _pos(first: int, last: int, last_text: str) -> str:
    return f'data-sourcepos="{first}:1-{last}:{max(len(last_text), 1)}" dir="auto"'


def _anchor(text: str) -> str:
    return _ANCHOR_DROP.sub("", text.lower()).strip().replace(" ", "-")


def render_markdown(content: str) -> str:
    lines = content.split("\n")
    blocks: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        number = index + 1
        if not line.strip():
            index += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            level, text = len(heading.group(1)), heading.group(2)
            anchor = _anchor(text)
            blocks.append(
                f"<h{level} {_pos(number, number, line)}>"
                f'<a href="#{anchor}" aria-hidden="true" class="anchor" id="user-content-{anchor}">'
                f"</a>{_inline(text)}</h{level}>"
            )
            index += 1
            continue
        if line.startswith("```"):
            language = line[3:].strip()
            end = index + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            code = html.escape("\n".join(lines[index + 1 : end]))
            last = min(end, len(lines) - 1)
            lang = html.escape(language or "plaintext", quote=True)
            blocks.append(
                f'<div class="gl-relative markdown-code-block js-markdown-code">'
                f'<pre {_pos(number, last + 1, lines[last])} lang="{lang}" '
                f'class="code highlight js-syntax-highlight language-{lang}">'
                f'<code><span lang="{lang}" class="line">{code}</span></code></pre></div>'
            )
            index = end + 1
            continue
        end = index
        while end + 1 < len(lines) and lines[end + 1].strip() and not _starts_block(lines[end + 1]):
            end += 1
        text = "\n".join(_inline(part) for part in lines[index : end + 1])
        blocks.append(f"<p {_pos(number, end + 1, lines[end])}>{text}</p>")
        index = end + 1
    return "\n".join(blocks)


def _starts_block(line: str) -> bool:
    return bool(_HEADING.match(line)) or line.startswith("```")


def render_plain(content: str) -> str:
    paragraphs = [part for part in re.split(r"\n\s*\n", content) if part.strip()]
    return "\n".join(f"<p>{html.escape(part.strip())}</p>" for part in paragraphs)


def render_html(content: str, page_format: str) -> str:
    return render_markdown(content) if page_format == "markdown" else render_plain(content)
