"""The built-in templates, read once from the package data under ``data/``: one file per
template in ``data/<kind>/`` (its file name is its name), and the licences' metadata in
``data/licenses.yaml``.

Licence texts carry ``[year]``, ``[fullname]`` and ``[project]`` placeholders, filled by
:func:`resolve` as the service fills them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import attrs
import yaml

FILE_KINDS = ("dockerfiles", "gitignores", "gitlab_ci_ymls")
LICENSES = "licenses"
KINDS = (*FILE_KINDS, LICENSES)
PLACEHOLDERS = {
    "year": ("[year]", "[yyyy]"),
    "fullname": ("[fullname]",),
    "project": ("[project]",),
}


@attrs.frozen
class Template:
    key: str
    name: str
    content: str


@attrs.frozen
class LicenseTemplate(Template):
    featured: bool = False
    html_url: str | None = None
    source_url: str | None = None
    description: str | None = None
    nickname: str | None = None
    conditions: tuple[str, ...] = ()
    permissions: tuple[str, ...] = ()
    limitations: tuple[str, ...] = ()


def _data() -> Any:
    return resources.files("fakeservice.file_templates").joinpath("data")


@cache
def templates(kind: str) -> tuple[Template, ...]:
    """The built-in templates of ``kind``, by name."""
    if kind == LICENSES:
        return _licenses()
    folder = _data().joinpath(kind)
    found = [
        Template(key=entry.name, name=entry.name, content=entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.is_file()
    ]
    return tuple(sorted(found, key=lambda t: t.name.lower()))


def _licenses() -> tuple[Template, ...]:
    data = _data()
    meta = yaml.safe_load(data.joinpath("licenses.yaml").read_text(encoding="utf-8"))
    out = []
    for item in meta:
        content = data.joinpath(LICENSES, item["key"]).read_text(encoding="utf-8")
        out.append(
            LicenseTemplate(
                content=content,
                **{k: tuple(v) if isinstance(v, list) else v for k, v in item.items()},
            )
        )
    return tuple(sorted(out, key=lambda t: t.key))


def find(kind: str, name: str) -> Template | None:
    """A built-in template by name (licences by key, in any case)."""
    for template in templates(kind):
        if template.name == name or (kind == LICENSES and template.key == name.lower()):
            return template
    return None


def resolve(template: Template, **values: str) -> str:
    """The template's content with its placeholders filled from ``values``."""
    content = template.content
    for name, value in values.items():
        for placeholder in PLACEHOLDERS[name]:
            content = content.replace(placeholder, value)
    return content
