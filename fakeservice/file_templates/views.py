"""JSON of templates: list items (``key``, ``name``), a file template (``name``,
``content``) and a licence (every metadata field and its ``content``)."""

from __future__ import annotations

from typing import Any

from fakeservice.file_templates.catalog import LicenseTemplate, Template


def list_item(template: Template) -> dict[str, Any]:
    return {"key": template.key, "name": template.name}


def template_view(template: Template, content: str | None = None) -> dict[str, Any]:
    return {"name": template.name, "content": template.content if content is None else content}


def license_view(template: LicenseTemplate, content: str | None = None) -> dict[str, Any]:
    return {
        "key": template.key,
        "name": template.name,
        "nickname": template.nickname,
        "popular": template.featured,
        "html_url": template.html_url,
        "source_url": template.source_url,
        "description": template.description,
        "conditions": list(template.conditions),
        "permissions": list(template.permissions),
        "limitations": list(template.limitations),
        "content": template.content if content is None else content,
    }
