"""Repository content in scenarios: keys of ``projects[]`` entries for files, branches,
commits with history, tags and protected branches.

```yaml
projects:
  - path: acme/website
    files: {README.md: "# Website\\n", src/app.py: "print('hi')\\n"}   # one commit
    branches: [{name: feature, from: main}]
    commits:
      - message: Add docs
        author: alice                 # a username (default: the project's creator)
        branch: feature               # default: the default branch
        from: main                    # start branch when ``branch`` does not exist yet
        files: {docs/a.md: "...", src/app.py: null}   # null deletes
        moves: {old/name.txt: new/name.txt}
        at: "2026-01-02T10:00:00Z"    # default: the scenario clock
    tags: [{name: v1.0.0, ref: main, message: Release}]
    protected_branches: [{name: "release/*", push: developer, merge: maintainer}]
```

Each key is a project section (all projects' ``files`` first, then ``branches``,
``commits``, ``tags``, ``protected_branches``); generated projects get them too.
``files`` become one ``Initial commit`` on the default branch; commits happen in order,
so blame and ``last_commit_id`` show the history. Authors without ``author`` are the
project's creator, else the first administrator.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.clock import as_time
from fakeservice.core.errors import ApiError
from fakeservice.projects.models import Project
from fakeservice.repository import protected, protected_tags
from fakeservice.repository.git import Action
from fakeservice.repository.models import (
    commit_email,
    commit_files,
    read_repository,
    record_change,
)
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import (
    BOOL,
    STR,
    TIME,
    Choice,
    Field,
    Kind,
    ListOf,
    MapOf,
    Nullable,
    Record,
)
from fakeservice.scenarios.sections import Sections
from fakeservice.users.models import User, users

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

LEVELS = {
    "no one": protected.NO_ACCESS,
    "developer": protected.DEVELOPER_ACCESS,
    "maintainer": protected.MAINTAINER_ACCESS,
    "admin": protected.ADMIN_ACCESS,
}
LEVEL = Choice(tuple(LEVELS))

FILES = MapOf(STR)
BRANCHES = ListOf(
    Record("branch", {"name": Field(STR, "branch name", True), "from": Field(STR, "start ref")})
)
COMMITS = ListOf(
    Record(
        "commit",
        {
            "message": Field(STR, "commit message"),
            "author": Field(STR, "username of the author and committer"),
            "branch": Field(STR, "branch to commit on (default: the default branch)"),
            "from": Field(STR, "start branch when `branch` does not exist"),
            "files": Field(MapOf(Nullable(STR)), "path: content (null deletes)"),
            "moves": Field(MapOf(STR), "old path: new path"),
            "at": Field(TIME, "commit time (default: the scenario clock)"),
        },
    )
)
TAGS = ListOf(
    Record(
        "tag",
        {
            "name": Field(STR, "tag name", True),
            "ref": Field(STR, "what it points at (default: HEAD)"),
            "message": Field(STR, "annotated tag message"),
            "author": Field(STR, "username of the tagger"),
        },
    )
)
PROTECTED_BRANCHES = ListOf(
    Record(
        "protected branch",
        {
            "name": Field(STR, "branch name or wildcard", True),
            "push": Field(LEVEL, "who may push (default: maintainer)"),
            "merge": Field(LEVEL, "who may merge (default: maintainer)"),
            "allow_force_push": Field(BOOL),
            "code_owner_approval_required": Field(BOOL),
        },
    )
)
PROTECTED_TAGS = ListOf(
    Record(
        "protected tag",
        {
            "name": Field(STR, "tag name or wildcard", True),
            "create": Field(LEVEL, "who may create matching tags (default: maintainer)"),
        },
    )
)

Loader = Callable[["FakeService", Project, Any, str], None]


def _reported(loader: Loader) -> Loader:
    """Report the service's refusals (a bad branch name...) at the scenario key."""

    def load(service: FakeService, project: Project, value: Any, where: str) -> None:
        try:
            loader(service, project, value, where)
        except ApiError as error:
            body = error.body
            message = body.get("message", body.get("error")) if isinstance(body, dict) else body
            raise ScenarioError([(where, str(message))]) from error

    return load


def _content(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode()


def _instant(value: Any) -> dt.datetime:
    return as_time(value)


def _author(service: FakeService, project: Project, username: Any, where: str) -> User:
    table = users(service.store)
    if username is not None:
        return named_user(service.store, username, where)
    creator = table.get(project.creator_id)
    if creator is not None:
        return creator
    admin = next(iter(table.select("admins", (True,))), None)
    if admin is None:
        raise ScenarioError([(where, "no author: name one with `author`")])
    return admin


def _commit(
    service: FakeService,
    project: Project,
    actions: list[Action],
    where: str,
    spec: Mapping[str, Any],
    *,
    branch: str | None = None,
) -> None:
    repo = read_repository(service.store, project)
    start = spec.get("from")
    at = spec.get("at")
    commit_files(
        service.store,
        project,
        repo,
        actions,
        user=_author(service, project, spec.get("author"), where),
        now=_instant(at) if at is not None else service.clock.now(),
        branch=branch or str(spec.get("branch") or repo.default_branch),
        message=str(spec.get("message") or "Update files"),
        start_branch=str(start) if start else None,
    )


@_reported
def load_files(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``files``: one ``Initial commit`` on the default branch."""
    actions = [Action("create", str(path), _content(text)) for path, text in value.items()]
    _commit(service, project, actions, where, {"message": "Initial commit"})


@_reported
def load_branches(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``branches``: ``{name, from}`` (from defaults to the default branch)."""
    repo = read_repository(service.store, project)
    for spec in value:
        repo.create_branch(str(spec["name"]), str(spec.get("from") or "HEAD"))
    record_change(service.store, project, repo, service.clock.now())


@_reported
def load_commits(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``commits``: in order; ``files`` creates or updates (null deletes), ``moves`` renames."""
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        repo = read_repository(service.store, project)
        branch = str(spec.get("branch") or repo.default_branch)
        source = str(spec.get("from") or branch)
        actions: list[Action] = []
        for path, text in (spec.get("files") or {}).items():
            if text is None:
                actions.append(Action("delete", str(path)))
            else:
                kind = "update" if repo.exists(source, str(path)) else "create"
                actions.append(Action(kind, str(path), _content(text)))
        for old, new in (spec.get("moves") or {}).items():
            actions.append(Action("move", str(new), previous_path=str(old)))
        _commit(service, project, actions, here, spec, branch=branch)


@_reported
def load_tags(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``tags``: lightweight, or annotated when they carry a ``message``."""
    repo = read_repository(service.store, project)
    now = service.clock.now()
    for index, spec in enumerate(value):
        message = spec.get("message")
        tagger = _author(service, project, spec.get("author"), f"{where}[{index}]")
        repo.create_tag(
            str(spec["name"]),
            str(spec.get("ref") or "HEAD"),
            str(message) if message else None,
            tagger_name=tagger.name,
            tagger_email=commit_email(tagger),
            when=now,
        )
    record_change(service.store, project, repo, now)


@_reported
def load_protected(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``protected_branches``: rules by name; one named like an existing rule replaces it."""
    for spec in value:
        name = str(spec["name"])
        existing = protected.find(service.store, project.id, name)
        if existing is not None:
            protected.unprotect(service.store, existing)
        protected.protect(
            service.store,
            project.id,
            name,
            push=LEVELS[str(spec.get("push", "maintainer")).lower()],
            merge=LEVELS[str(spec.get("merge", "maintainer")).lower()],
            allow_force_push=bool(spec.get("allow_force_push", False)),
            code_owner_approval_required=bool(spec.get("code_owner_approval_required", False)),
        )


@_reported
def load_protected_tags(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``protected_tags``: rules by name; one named like an existing rule replaces it."""
    for spec in value:
        name = str(spec["name"])
        existing = protected_tags.find(service.store, project.id, name)
        if existing is not None:
            protected_tags.unprotect(service.store, existing)
        level = LEVELS[str(spec.get("create", "maintainer")).lower()]
        protected_tags.protect(service.store, project.id, name, level)


SECTIONS: tuple[tuple[str, Loader, Kind, str], ...] = (
    ("files", load_files, FILES, "path: content, committed on the default branch"),
    ("branches", load_branches, BRANCHES, "branches to create"),
    ("commits", load_commits, COMMITS, "commits, in order (history for blame)"),
    ("tags", load_tags, TAGS, "tags to create"),
    ("protected_branches", load_protected, PROTECTED_BRANCHES, "protected branch rules"),
    ("protected_tags", load_protected_tags, PROTECTED_TAGS, "protected tag rules"),
)


def register(found: Sections) -> None:
    """Declare the repository keys of ``projects[]`` (``files``, ``branches``...)."""
    for name, loader, schema, doc in SECTIONS:
        found.register_project_section(name, loader, schema=schema, doc=doc)
