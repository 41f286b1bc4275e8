"""Branches and tags endpoints: list (search, regex, sort; paginated), get (encoded names),
create and delete.

Reading needs the rights to read code; creating and deleting branches and tags needs
push access to the project (Developer); deleting a protected branch needs Maintainer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import BadRequest, ParamError, or_404
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.models import Project
from fakeservice.repository import protected, protected_tags
from fakeservice.repository.access import can_push_branch
from fakeservice.repository.git import (
    ZERO_SHA,
    Branch,
    RefUpdate,
    Repository,
    Tag,
    valid_branch_name,
)
from fakeservice.repository.guards import caller_role, pushable, readable
from fakeservice.repository.models import commit_email, commit_readme, record_change
from fakeservice.repository.router import api
from fakeservice.repository.views import branch_view, project_web_url, tag_view
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import PUBLIC, REQUIRED

BRANCHES = "/projects/:id/repository/branches"
TAGS = "/projects/:id/repository/tags"
ID = Param("id", STR, required=True)
PROTECTED_DELETE = (
    "You are not allowed to delete protected branches from this project. "
    "Only a project maintainer or owner can delete a protected branch."
)
_VERSION_PART = re.compile(r"(\d+)")


def name_filter(search: str | None) -> Callable[[str], bool]:
    """The ``search`` rule: ``^x`` prefix, ``x$`` suffix, else substring; case-insensitive."""
    if not search:
        return lambda name: True
    needle = search.lower()
    if needle.startswith("^"):
        return lambda name: name.lower().startswith(needle[1:])
    if needle.endswith("$"):
        return lambda name: name.lower().endswith(needle[:-1])
    return lambda name: needle in name.lower()


def _ref_moved(
    ctx: Context, project: Project, repo: Repository, ref: str, old: str, new: str
) -> None:
    """Store the change and tell the ref listeners (push pipelines) who moved which ref."""
    update = RefUpdate(ref, old, new)
    record_change(ctx.store, project, repo, ctx.now, updates=(update,), user=ctx.user)


# -- branches -----------------------------------------------------------------------------


def _branch_renderer(
    ctx: Context, project: Project, repo: Repository
) -> Callable[[Branch], dict[str, Any]]:
    web_url = project_web_url(ctx.base_url, project)
    level = caller_role(ctx, project)
    rules = protected.of_project(ctx.store, project.id)
    default = repo.default_branch

    @functools.cache
    def default_history() -> tuple[str | None, frozenset[str]]:
        head = repo.branch(default)
        if head is None:
            return None, frozenset()
        return head.commit_id, frozenset(c.id for c in repo.commits(head.commit_id))

    def merged(branch: Branch) -> bool:
        """As the service: an ancestor of the default branch that is not its head."""
        if branch.name == default:
            return False
        head_id, history = default_history()
        return branch.commit_id != head_id and branch.commit_id in history

    def render(branch: Branch) -> dict[str, Any]:
        matching = [rule for rule in rules if rule.matches(branch.name)]
        return branch_view(
            branch.name,
            repo.get_commit(branch.commit_id),
            web_url,
            merged=merged(branch),
            protected=bool(matching),
            developers_can_push=_developers_can(matching, "push_access_levels"),
            developers_can_merge=_developers_can(matching, "merge_access_levels"),
            can_push=can_push_branch(ctx.store, project, repo, branch.name, level),
            default=branch.name == default,
        )

    return render


def _developers_can(rules: list[protected.ProtectedBranch], attribute: str) -> bool:
    return any(
        level.access_level == protected.DEVELOPER_ACCESS
        for rule in rules
        for level in getattr(rule, attribute)
    )


@api.get(
    BRANCHES,
    params=(
        ID,
        Param("search", STR),
        Param("regex", STR),
        Param("sort", STR, values=("name_asc", "updated_asc", "updated_desc")),
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_branches(ctx: Context) -> Any:
    """List branches by name (``search``: ``^prefix``, ``suffix$``, substring; ``regex``)."""
    project, repo = readable(ctx)
    keep = name_filter(ctx.params.get("search"))
    found = [b for b in repo.branches() if keep(b.name)]
    if ctx.params.get("regex"):
        try:
            pattern = re.compile(ctx.params["regex"])
        except re.error as error:
            raise ParamError("regex is invalid") from error
        found = [b for b in found if pattern.search(b.name)]
    sort = ctx.params.get("sort") or "name_asc"
    if sort != "name_asc":
        found.sort(key=lambda b: (repo.get_commit(b.commit_id).committed_date, b.name))
        if sort == "updated_desc":
            found.reverse()
    return ctx.paginate_list(found, _branch_renderer(ctx, project, repo))


@api.get(BRANCHES + "/:branch", params=(ID, Param("branch", STR, required=True)), auth=PUBLIC)
def get_branch(ctx: Context) -> Any:
    """Get one branch (names with ``/`` URL-encoded)."""
    project, repo = readable(ctx)
    branch = or_404(repo.branch(ctx.params["branch"]), "Branch")
    return _branch_renderer(ctx, project, repo)(branch)


@api.head(BRANCHES + "/:branch", params=(ID, Param("branch", STR, required=True)), auth=PUBLIC)
def branch_exists(ctx: Context) -> Any:
    """204 when the branch exists, 404 otherwise."""
    _, repo = readable(ctx)
    or_404(repo.branch(ctx.params["branch"]), "Branch")
    return Response(204, [], b"")


@api.post(
    BRANCHES,
    params=(
        ID,
        Param("branch", STR, required=True, allow_blank=False),
        Param("ref", STR, required=True, allow_blank=False),
    ),
    auth=REQUIRED,
)
def create_branch(ctx: Context) -> Any:
    """Create a branch at ``ref`` (Developer)."""
    project, repo = pushable(ctx)
    if repo.is_empty and valid_branch_name(ctx.params["branch"]):
        _create_default_branch(ctx, project, repo)
    branch = repo.create_branch(ctx.params["branch"], ctx.params["ref"])
    _ref_moved(ctx, project, repo, f"refs/heads/{branch.name}", ZERO_SHA, branch.commit_id)
    return _branch_renderer(ctx, project, repo)(branch)


def _create_default_branch(ctx: Context, project: Project, repo: Repository) -> None:
    """As the service does for a branch in an empty repository: first the default branch,
    with one commit adding an empty ``README.md``."""
    commit_readme(
        ctx.store, project, repo, b"", user=ctx.user, now=ctx.now, message="Add README.md"
    )


@api.delete(BRANCHES + "/:branch", params=(ID, Param("branch", STR, required=True)), auth=REQUIRED)
def delete_branch(ctx: Context) -> Any:
    """Delete a branch (Developer; a protected one needs Maintainer; never the default)."""
    project, repo = pushable(ctx)
    name = ctx.params["branch"]
    head = or_404(repo.branch(name), "Branch").commit_id
    if (
        name != repo.default_branch
        and protected.rules_for(ctx.store, project.id, name)
        and caller_role(ctx, project) < MAINTAINER
    ):
        raise BadRequest(PROTECTED_DELETE, raw=True)
    repo.delete_branch(name)
    _ref_moved(ctx, project, repo, f"refs/heads/{name}", head, ZERO_SHA)


# -- tags ---------------------------------------------------------------------------------


def _version_key(name: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in _VERSION_PART.split(name))


def _tag_renderer(ctx: Context, project: Project, repo: Repository) -> Callable[[Tag], Any]:
    web_url = project_web_url(ctx.base_url, project)
    return lambda tag: tag_view(tag, repo.get_commit(tag.commit_id), web_url)


@api.get(
    TAGS,
    params=(
        ID,
        Param("search", STR),
        Param("order_by", STR, default="updated", values=("name", "updated", "version")),
        Param("sort", STR, default="desc", values=("asc", "desc")),
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_tags(ctx: Context) -> Any:
    """List tags (``order_by`` name, updated or version; ``search`` as for branches)."""
    project, repo = readable(ctx)
    keep = name_filter(ctx.params.get("search"))
    found = [t for t in repo.tags() if keep(t.name)]
    order = ctx.params["order_by"]
    if order == "updated":
        found.sort(key=lambda t: (repo.get_commit(t.commit_id).committed_date, t.name))
    elif order == "version":
        found.sort(key=lambda t: _version_key(t.name))
    if ctx.params["sort"] == "desc":
        found.reverse()
    return ctx.paginate_list(found, _tag_renderer(ctx, project, repo))


@api.get(TAGS + "/:tag_name", params=(ID, Param("tag_name", STR, required=True)), auth=PUBLIC)
def get_tag(ctx: Context) -> Any:
    """Get one tag."""
    project, repo = readable(ctx)
    return _tag_renderer(ctx, project, repo)(or_404(repo.tag(ctx.params["tag_name"]), "Tag"))


@api.post(
    TAGS,
    params=(
        ID,
        Param("tag_name", STR, required=True, allow_blank=False),
        Param("ref", STR, required=True, allow_blank=False),
        Param("message", STR),
    ),
    auth=REQUIRED,
)
def create_tag(ctx: Context) -> Any:
    """Create a tag (annotated when ``message`` is given; Developer; a protected tag needs
    one of its create levels)."""
    project, repo = pushable(ctx)
    role = caller_role(ctx, project)
    if not protected_tags.can_create(ctx.store, project.id, ctx.params["tag_name"], role):
        raise BadRequest(protected_tags.CREATE_PROTECTED, raw=True)
    tag = repo.create_tag(
        ctx.params["tag_name"],
        ctx.params["ref"],
        ctx.params.get("message"),
        tagger_name=ctx.user.name,
        tagger_email=commit_email(ctx.user),
        when=ctx.now,
    )
    _ref_moved(ctx, project, repo, f"refs/tags/{tag.name}", ZERO_SHA, tag.target)
    return _tag_renderer(ctx, project, repo)(tag)


@api.delete(TAGS + "/:tag_name", params=(ID, Param("tag_name", STR, required=True)), auth=REQUIRED)
def delete_tag(ctx: Context) -> Any:
    """Delete a tag (Developer)."""
    project, repo = pushable(ctx)
    name = ctx.params["tag_name"]
    target = or_404(repo.tag(name), "Tag").target
    repo.delete_tag(name)
    _ref_moved(ctx, project, repo, f"refs/tags/{name}", target, ZERO_SHA)
