"""Project repositories in the store, and the writes that keep projects in step with them.

Each project's :class:`~fakeservice.repository.git.Repository` lives in
``store.extras["repositories"][project_id]``, so snapshots and restores carry it. A
project that never had a successful write has none: reads and writes get a fresh empty
repository, which is stored by :func:`record_change` once a write succeeds (a failed
write leaves no trace). The repository's default branch follows the project's
``default_branch`` while that branch exists (or while the repository is empty), and
after every change the project follows the repository: ``empty_repo`` turns false with the first commit (which
also protects the default branch), ``default_branch`` names the branch the repository
adopted, and ``last_activity_at`` moves to the service clock.

Other areas learn that refs moved through :data:`REFS_MOVED`: a listener gets a
:class:`RefChange` (the project, the :class:`~fakeservice.repository.git.RefUpdate` list
and the user who pushed) after :func:`record_change` stored the write, for every write
that names its updates: git pushes over HTTP and commits through the API (files and
commits endpoints, :func:`commit_files`). The CI area creates pipelines on push with it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

import attrs

from fakeservice.core.errors import BadRequest
from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.projects.models import Project, projects
from fakeservice.repository import protected
from fakeservice.repository.access import default_branch_protection
from fakeservice.repository.git import (
    HEADS,
    ZERO_SHA,
    Action,
    ApiFlavour,
    RefUpdate,
    Repository,
    valid_branch_name,
)
from fakeservice.users.models import User

DEFAULT_BRANCH = "main"
_KEY = "repositories"


@attrs.frozen(eq=False)
class RefChange:
    """Refs of one project that one write moved, as :data:`REFS_MOVED` listeners see
    them (the write is already stored)."""

    store: Store
    project: Project
    repo: Repository
    updates: tuple[RefUpdate, ...]
    user: User | None
    now: dt.datetime


# Areas that judge pushes listen to this one (the push rules area):
# ``check(store, project, repo, update, user) -> str | None`` returns why ``update`` is
# refused; git pushes and API commits (:func:`commit_files`) both ask it, before the ref
# moves for good (the new objects are already in ``repo``).
PUSH_CHECK = "refs.push_check"
PushCheck = Callable[[Store, Project, Repository, RefUpdate, "User | None"], "str | None"]


def push_refusal(
    store: Store, project: Project, repo: Repository, update: RefUpdate, user: User | None
) -> str | None:
    """The first :data:`PUSH_CHECK` refusal of ``update``, or None."""
    for check in listeners(store, PUSH_CHECK):
        found = check(store, project, repo, update, user)
        if found:
            return found
    return None


# Areas that react to pushes listen to this event (``setup.listen(REFS_MOVED, listener)``,
# see fakeservice.areas): ``listener(change)`` runs after every write that moved refs.
REFS_MOVED = "refs.moved"
RefListener = Callable[[RefChange], None]


def install(store: Store) -> None:
    """Declare the repository area's tables (repositories themselves live in extras)."""
    protected.install(store)


def _repositories(store: Store) -> dict[int, Repository]:
    return store.extras.setdefault(_KEY, {})


def _follow_project(repo: Repository, project: Project) -> Repository:
    wanted = project.default_branch
    moves = wanted and wanted != repo.default_branch
    if moves and (repo.is_empty or repo.branch(wanted) is not None):
        repo.default_branch = wanted
    return repo


def find_repository(store: Store, project: Project) -> Repository | None:
    """The project's stored repository, or None when nothing was ever written."""
    repo = _repositories(store).get(project.id)
    return _follow_project(repo, project) if repo is not None else None


def read_repository(store: Store, project: Project) -> Repository:
    """The project's repository: the stored one, or a fresh empty one (not yet stored)."""
    found = find_repository(store, project)
    return found if found is not None else Repository(project.default_branch or DEFAULT_BRANCH)


def commit_email(user: User) -> str:
    return user.commit_email or user.email


def commit_files(
    store: Store,
    project: Project,
    repo: Repository,
    actions: Sequence[Action],
    *,
    user: User,
    now: dt.datetime,
    branch: str,
    message: str,
    author_name: str | None = None,
    author_email: str | None = None,
    start_branch: str | None = None,
    force: bool = False,
    api: ApiFlavour = "files",
) -> str:
    """Commit ``actions`` on ``branch`` as ``user`` (the committer; the author unless
    given) at ``now``; all or nothing. Returns the new commit's sha."""
    previous = repo.branch(branch)
    sha = repo.commit(
        branch,
        actions,
        message=message,
        author_name=author_name or user.name,
        author_email=author_email or commit_email(user),
        committer_name=user.name,
        committer_email=commit_email(user),
        when=now,
        start_branch=start_branch,
        force=force,
        api=api,
    )
    old = previous.commit_id if previous is not None else ZERO_SHA
    update = RefUpdate(HEADS.decode() + branch, old, sha)
    refused = push_refusal(store, project, repo, update, user)
    if refused is not None:
        refs = repo.refs_container()
        if previous is not None:
            refs[update.ref.encode()] = old.encode()
        else:
            refs.remove_if_equals(update.ref.encode(), None)
        raise BadRequest(refused, raw=True)
    record_change(store, project, repo, now, updates=(update,), user=user)
    return sha


def commit_readme(
    store: Store,
    project: Project,
    repo: Repository,
    content: bytes,
    *,
    user: User,
    now: dt.datetime,
    message: str,
) -> str:
    """Commit ``README.md`` with ``content`` on the default branch (``main`` when the
    project's ``default_branch`` is not a valid branch name); returns the commit's sha."""
    if not valid_branch_name(repo.default_branch):
        repo.default_branch = DEFAULT_BRANCH
    actions = [Action("create", "README.md", content)]
    return commit_files(
        store,
        project,
        repo,
        actions,
        user=user,
        now=now,
        branch=repo.default_branch,
        message=message,
    )


def record_change(
    store: Store,
    project: Project,
    repo: Repository,
    now: dt.datetime,
    *,
    updates: Sequence[RefUpdate] = (),
    user: User | None = None,
) -> None:
    """Store ``repo`` as the project's repository if it is new, and bring the project in
    step with it after refs moved; then tell the :data:`REFS_MOVED` listeners about
    ``updates`` (the refs that moved, pushed by ``user``), if any."""
    _repositories(store).setdefault(project.id, repo)
    changes: dict[str, object] = {"last_activity_at": now}
    if not repo.is_empty:
        if project.empty_repo:
            changes["empty_repo"] = False
            protected.protect_default_branch(
                store, project.id, repo.default_branch, default_branch_protection(store, project)
            )
        if project.default_branch != repo.default_branch:
            changes["default_branch"] = repo.default_branch
    projects(store).update(project, **changes)
    if updates:
        change = RefChange(store, project, repo, tuple(updates), user, now)
        for listener in listeners(store, REFS_MOVED):
            listener(change)


def forget_repository(store: Store, project_id: int) -> None:
    """Drop a project's repository (its project is being deleted)."""
    _repositories(store).pop(project_id, None)
