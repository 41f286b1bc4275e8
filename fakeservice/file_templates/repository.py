"""A project's own issue and merge request templates: the Markdown files of
``.gitlab/issue_templates`` and ``.gitlab/merge_request_templates`` on its default branch
(a template's name is its file name without ``.md``)."""

from __future__ import annotations

from fakeservice.core.errors import NotFound
from fakeservice.core.store import Store
from fakeservice.file_templates.catalog import Template
from fakeservice.projects.models import Project
from fakeservice.repository.models import find_repository

FOLDERS = {"issues": ".gitlab/issue_templates", "merge_requests": ".gitlab/merge_request_templates"}


def project_templates(store: Store, project: Project, kind: str) -> list[Template]:
    """The project's templates of ``kind`` (issues or merge_requests), by name."""
    repo = find_repository(store, project)
    if repo is None or repo.is_empty:
        return []
    folder = FOLDERS[kind]
    try:
        entries = repo.tree(None, folder)
    except NotFound:
        return []
    out = [
        Template(key=entry.name[:-3], name=entry.name[:-3], content="")
        for entry in entries
        if entry.type == "blob" and entry.name.endswith(".md")
    ]
    return sorted(out, key=lambda t: t.name)


def project_template(store: Store, project: Project, kind: str, name: str) -> Template | None:
    """One of the project's templates, with its content."""
    if not any(t.name == name for t in project_templates(store, project, kind)):
        return None
    repo = find_repository(store, project)
    assert repo is not None
    content = repo.raw(None, f"{FOLDERS[kind]}/{name}.md").decode("utf-8", "replace")
    return Template(key=name, name=name, content=content)
