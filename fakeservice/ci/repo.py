"""What CI reads from a project's repository: refs, commits and the CI configuration file.

Pipelines are created for a branch or a tag; the configuration is read at the commit the
ref points to (``.gitlab-ci.yml``, or the project's ``ci_config_path``), and local
includes are read from that same commit. Commits are rendered once, when a pipeline is
created, and kept on the pipeline (git objects never change).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import attrs

from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.projects.models import Project
from fakeservice.repository.git import CommitInfo, Repository
from fakeservice.repository.models import read_repository
from fakeservice.repository.views import commit_entity

DEFAULT_CI_FILE = ".gitlab-ci.yml"
REF_NOT_FOUND = "Reference not found"
REF_AMBIGUOUS = "Ref is ambiguous"
SCENARIO_AUTHOR = "Scenario"
SCENARIO_EMAIL = "scenario@example.com"


@attrs.frozen(slots=True)
class RefInfo:
    """A ref a pipeline runs for: its name, whether it is a tag, and the commit."""

    ref: str
    tag: bool
    sha: str
    commit: dict[str, Any]


def repository(store: Store, project: Project) -> Repository:
    return read_repository(store, project)


def ci_config_path(project: Project) -> str:
    path = (project.ci_config_path or "").strip()
    return path or DEFAULT_CI_FILE


def resolve_ref(store: Store, project: Project, ref: str) -> RefInfo | str:
    """The branch or tag ``ref`` of the project, or the service's error text."""
    repo = repository(store, project)
    branch = repo.branch(ref) if ref else None
    tag = repo.tag(ref) if ref else None
    if branch is not None and tag is not None:
        return REF_AMBIGUOUS
    if branch is None and tag is None:
        return REF_NOT_FOUND
    return ref_at(store, project, ref, tag=tag is not None) or REF_NOT_FOUND


def ref_at(store: Store, project: Project, name: str, *, tag: bool) -> RefInfo | None:
    """The branch (or, with ``tag``, the tag) ``name`` and the commit it points to (an
    annotated tag is peeled), or None when there is no such ref."""
    repo = repository(store, project)
    found = repo.tag(name) if tag else repo.branch(name)
    if found is None:
        return None
    info = repo.find_commit(found.commit_id)
    if info is None:
        return None
    return RefInfo(name, tag, found.commit_id, commit_entity(info, with_trailers=False))


def read_text(store: Store, project: Project, sha: str, path: str) -> str | None:
    """A file of the repository at ``sha`` as text, or None when it does not exist."""
    repo = repository(store, project)
    try:
        if not repo.exists(sha, path):
            return None
        return repo.raw(sha, path).decode("utf-8", "replace")
    except (ApiError, ValueError):
        return None


def head_sha(store: Store, project: Project) -> str | None:
    """The commit at the head of the default branch, or None for an empty repository."""
    repo = repository(store, project)
    if repo.is_empty:
        return None
    return repo.resolve("HEAD")


def synthetic_ref(project: Project, ref: str, when: dt.datetime) -> RefInfo:
    """A ref for a scenario pipeline of a project without that ref in its repository."""
    sha = hashlib.sha1(f"{project.path_with_namespace}\0{ref}".encode()).hexdigest()
    message = f"Scenario commit for {ref}"
    info = CommitInfo(
        id=sha,
        tree_id="",
        parent_ids=(),
        message=message,
        author_name=SCENARIO_AUTHOR,
        author_email=SCENARIO_EMAIL,
        authored_date=when,
        committer_name=SCENARIO_AUTHOR,
        committer_email=SCENARIO_EMAIL,
        committed_date=when,
    )
    # the title is the whole message, however long
    commit = {**commit_entity(info, with_trailers=False), "title": message}
    return RefInfo(ref, False, sha, commit)
