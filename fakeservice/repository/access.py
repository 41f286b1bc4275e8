"""Who may read and write a project's repository (no HTTP here; the API and git over HTTP
both ask these questions).

* Reading code: everyone who can see a public or internal project, unless its
  repository feature is disabled or private; in a private project, Reporter and up.
* Pushing: Developer and up on unprotected branches, never into an archived project; a
  protected branch needs one of its push levels (Maintainer by default). Into an empty
  repository, while the namespace protects default branches, only Maintainers push
  unless the setting lets Developers make the initial push (as the real service does).
* Read-only repositories (while a storage move runs: an area listens to
  :data:`READ_ONLY_CHECK`) refuse every write with :data:`READ_ONLY`, API and git alike.
"""

from __future__ import annotations

import datetime as dt

from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.members.access import can_read_project, project_access
from fakeservice.members.models import DEVELOPER, MAINTAINER, REPORTER
from fakeservice.projects.models import Project
from fakeservice.repository import protected
from fakeservice.repository.git import Repository
from fakeservice.users.models import User

READ_ONLY = "The repository is temporarily read-only. Please try again later."
# Asked before every repository write: ``check(store, project) -> bool``, True when
# another area (storage moves) holds the project's repository read-only.
READ_ONLY_CHECK = "repository.read_only_check"


def repository_read_only(store: Store, project: Project) -> bool:
    return any(check(store, project) for check in listeners(store, READ_ONLY_CHECK))


def can_read_code(store: Store, user: User | None, project: Project, now: dt.datetime) -> bool:
    if user is not None and user.admin:
        return True
    feature = project.features.get("repository", "enabled")
    if feature == "disabled":
        return False
    if project.visibility == "private" or feature == "private":
        return project_access(store, user, project, now) >= REPORTER
    return can_read_project(store, user, project, now)


def default_branch_protection(store: Store, project: Project) -> int:
    return namespaces(store).rows[project.namespace_id].default_branch_protection


def can_push_code(project: Project, role_level: int) -> bool:
    """Push access to the project at all (any branch, before protection rules)."""
    return role_level >= DEVELOPER and not project.archived


def can_push_branch(
    store: Store,
    project: Project,
    repo: Repository,
    branch: str,
    role_level: int,
    *,
    was_empty: bool | None = None,
) -> bool:
    """Whether a caller with ``role_level`` may move ``branch``.

    ``was_empty`` judges the repository as it was before a push that is being applied.
    """
    if not can_push_code(project, role_level):
        return False
    empty = repo.is_empty if was_empty is None else was_empty
    if empty:
        setting = default_branch_protection(store, project)
        return role_level >= MAINTAINER or setting in protected.INITIAL_PUSH_BY_DEVELOPER
    rules = protected.rules_for(store, project.id, branch)
    return not rules or any(protected.allows(rule.push_access_levels, role_level) for rule in rules)
