"""JSON shapes of wiki pages and attachments."""

from __future__ import annotations

from typing import Any

from fakeservice.wikis.models import Attachment, Page
from fakeservice.wikis.render import render_html


def page_basic(page: Page) -> dict[str, Any]:
    """A page in a list without ``with_content``."""
    return {"format": page.format, "slug": page.slug, "title": page.title}


def page_view(page: Page, *, html: bool = False) -> dict[str, Any]:
    """A page with its content (raw, or rendered with ``render_html``)."""
    content = render_html(page.text, page.format) if html else page.text
    return {**page_basic(page), "content": content, "encoding": "UTF-8"}


def attachment_view(attachment: Attachment) -> dict[str, Any]:
    return {
        "file_name": attachment.file_name,
        "file_path": attachment.file_path,
        "branch": attachment.branch,
        "link": {"url": attachment.file_path, "markdown": attachment.markdown},
    }
