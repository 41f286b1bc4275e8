"""``DELETE /projects/:id/repository/merged_branches`` (not in the spec; the real service
has it): 202 ``{"message": "202 Accepted"}`` for anyone who may read the code. The
service deletes in a background worker that needs push access; the fake does that work
before answering: when the caller may push (Developer and up, project not archived, the
repository not read-only), every branch merged into the default branch (an ancestor of
its head, not the head itself: the ``merged`` of the branch list) goes, except the
default branch and protected branches, in one ref change (push pipelines and hooks hear
it as one push of deletions).
"""

from __future__ import annotations

from fakeservice.repository import protected
from fakeservice.repository.access import can_push_code, repository_read_only
from fakeservice.repository.git import ZERO_SHA, RefUpdate, Repository
from fakeservice.repository.guards import caller_role, readable
from fakeservice.repository.models import record_change
from fakeservice.repository.router import api
from fakeservice.web.context import Context
from fakeservice.web.http import Response, json_response
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import REQUIRED


def merged_branches(repo: Repository) -> list[tuple[str, str]]:
    """``(name, head)`` of the branches merged into the default branch (itself left out)."""
    default = repo.branch(repo.default_branch)
    if default is None:
        return []
    history = {commit.id for commit in repo.commits(default.commit_id)}
    return [
        (branch.name, branch.commit_id)
        for branch in repo.branches()
        if branch.name != default.name
        and branch.commit_id != default.commit_id
        and branch.commit_id in history
    ]


@api.delete(
    "/projects/:id/repository/merged_branches",
    params=(Param("id", STR, required=True),),
    auth=REQUIRED,
    status=202,
)
def delete_merged_branches(ctx: Context) -> Response:
    """Delete the branches merged into the default branch, protected ones kept (202)."""
    project, repo = readable(ctx)
    may_push = can_push_code(project, caller_role(ctx, project))
    if may_push and not repository_read_only(ctx.store, project):
        gone = [
            (name, head)
            for name, head in merged_branches(repo)
            if not protected.rules_for(ctx.store, project.id, name)
        ]
        for name, _head in gone:
            repo.delete_branch(name)
        if gone:
            updates = tuple(RefUpdate(f"refs/heads/{n}", head, ZERO_SHA) for n, head in gone)
            record_change(ctx.store, project, repo, ctx.now, updates=updates, user=ctx.user)
    return json_response({"message": "202 Accepted"}, 202)
