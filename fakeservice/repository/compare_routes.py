"""Compare and merge base endpoints: ``GET /projects/:id/repository/compare`` (``from``,
``to``, ``straight``, ``from_project_id``, ``unidiff``) and
``GET /projects/:id/repository/merge_base`` (``refs[]``, at least two).

A ref that names no commit is ``404 Ref Not Found`` for a comparison; for a merge base,
``400 Could not find ref: <name>`` (``refs: a, b`` for several), and ``404 Merge Base
Not Found`` when the histories share no commit. ``from_project_id`` reads ``from`` in
another project the caller may read (its commit must be in this repository too, as it is
for a fork).
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import BadRequest, NotFound
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.repository.access import can_read_code
from fakeservice.repository.compare import compare, merge_base_of
from fakeservice.repository.guards import readable
from fakeservice.repository.models import read_repository
from fakeservice.repository.router import api
from fakeservice.repository.views import commit_view, diff_view, project_web_url
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, Array, Param
from fakeservice.web.routing import PUBLIC

ID = Param("id", STR, required=True)


@api.get(
    "/projects/:id/repository/compare",
    params=(
        ID,
        Param("from", STR, required=True, allow_blank=False),
        Param("to", STR, required=True, allow_blank=False),
        Param("from_project_id", INT),
        Param("straight", BOOL, default=False),
        Param("unidiff", BOOL, default=False),
    ),
    auth=PUBLIC,
)
def compare_refs(ctx: Context) -> Any:
    """Commits and diffs between two refs."""
    project, repo = readable(ctx)
    p = ctx.params
    source = repo
    if p.get("from_project_id") is not None and p["from_project_id"] != project.id:
        other = find_project_or_404(ctx, p["from_project_id"])
        if not can_read_code(ctx.store, ctx.user, other, ctx.now):
            raise NotFound("Project")
        source = read_repository(ctx.store, other)
    from_sha = source.resolve(p["from"])
    to_sha = repo.resolve(p["to"])
    if from_sha is None or to_sha is None or repo.find_commit(from_sha) is None:
        raise NotFound("Ref")
    result = compare(repo, from_sha, to_sha, straight=p["straight"])
    web_url = project_web_url(ctx.base_url, project)
    commits = [commit_view(info, web_url) for info in result.commits]
    return {
        "commit": commits[-1] if commits else None,
        "commits": commits,
        "diffs": [diff_view(entry) for entry in result.diffs],
        "compare_timeout": False,
        "compare_same_ref": result.same,
        "web_url": f"{web_url}/-/compare/{from_sha}...{to_sha}",
    }


@api.get(
    "/projects/:id/repository/merge_base",
    params=(ID, Param("refs", Array(STR), required=True)),
    auth=PUBLIC,
)
def merge_base(ctx: Context) -> Any:
    """The best common ancestor of the refs."""
    project, repo = readable(ctx)
    refs = ctx.params["refs"]
    if len(refs) < 2:
        raise BadRequest("Provide at least 2 refs", raw=True)
    shas = {ref: repo.resolve(ref) for ref in refs}
    unknown = [ref for ref, sha in shas.items() if sha is None]
    if unknown:
        noun = "ref" if len(unknown) == 1 else "refs"
        raise BadRequest(f"Could not find {noun}: {', '.join(unknown)}", raw=True)
    found = merge_base_of(repo, [sha for sha in shas.values() if sha is not None])
    if found is None:
        raise NotFound("Merge Base")
    return commit_view(repo.get_commit(found), project_web_url(ctx.base_url, project))
