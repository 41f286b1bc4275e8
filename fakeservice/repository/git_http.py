"""git over HTTP (clone, fetch, push) at ``/<namespace>/<project>.git`` (nested namespaces
too; the ``.git`` suffix may be left out), outside ``/api/v4``.

These endpoints do their own authentication, HTTP Basic as git speaks it, instead of the
API's token resolution: the password is a personal, project or OAuth access token (any
username, ``oauth2`` included), the user's password, or a deploy token with its username
(read only, the projects it reaches; see :data:`DEPLOY_TOKEN_LOOKUP`). Public code is readable
anonymously; otherwise missing or wrong credentials get 401 with
``WWW-Authenticate: Basic realm="GitLab"`` so git asks for them and retries.

* Pull needs the rights to read code and, with a token, one of the scopes ``api``,
  ``read_api``, ``read_repository``, ``write_repository``; a signed-in caller who cannot see the
  project gets 404.
* Push needs Developer and a token scope ``api`` or ``write_repository``; each ref
  update then passes the protected branch rules (push levels, no force push unless
  allowed, no deletion of a protected branch over git), with the real service's messages.
  While the repository is read-only (a storage move) a push gets 403
  ``The repository is temporarily read-only. Please try again later.``

A push moves the project's refs at once (the API sees it) and updates the project as any
write does (``empty_repo``, ``default_branch``, default branch protection); the refs it
moved go to the ref-update listeners (:data:`~fakeservice.repository.models.REFS_MOVED`)
with the pusher.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.events import listeners
from fakeservice.members.access import can_read_project, project_role
from fakeservice.projects.models import Project, find_project
from fakeservice.repository import protected, protected_tags
from fakeservice.repository.access import (
    READ_ONLY,
    can_push_branch,
    can_push_code,
    can_read_code,
    repository_read_only,
)
from fakeservice.repository.git import RefUpdate, Repository
from fakeservice.repository.models import push_refusal, read_repository, record_change
from fakeservice.repository.router import api
from fakeservice.repository.smart_http import (
    RECEIVE_PACK,
    UPLOAD_PACK,
    RefAuthorizer,
    RefListener,
    handle,
)
from fakeservice.tokens.models import find_secret
from fakeservice.users.models import User, find_by_username, hash_password, users
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.routing import NO_AUTH, AreaRouter

CHALLENGE = 'Basic realm="GitLab"'
ACCESS_DENIED = (
    "HTTP Basic: Access denied. If a password was provided for Git authentication, the "
    "password was incorrect or you're required to use a token instead of a password. If a "
    "token was provided, it was either incorrect, expired, or improperly scoped.\n"
)
PROJECT_NOT_FOUND = (
    "The project you were looking for could not be found or you don't have permission to view it.\n"
)
DOWNLOAD_DENIED = "You are not allowed to download code from this project.\n"
PUSH_PROTECTED = "You are not allowed to push code to protected branches on this project."
CREATE_PROTECTED = "You are not allowed to create protected branches on this project."
FORCE_PUSH_PROTECTED = (
    "You are not allowed to force push code to a protected branch on this project."
)
DELETE_PROTECTED = "You can only delete protected branches using the web interface."

# read_api grants the read-only abilities, downloading code among them (as in the service)
READ_SCOPES = frozenset({"api", "read_api", "read_repository", "write_repository"})
WRITE_SCOPES = frozenset({"api", "write_repository"})
PASSWORD_SCOPES = frozenset({"api"})


# Listened to by the deploy area: (store, username, secret, now) -> the scopes a deploy
# token grants per project, or None when the credentials are not a deploy token's.
DEPLOY_TOKEN_LOOKUP = "git.deploy_token"
DeployGrant = Callable[[Project], frozenset[str]]


@attrs.frozen
class GitCaller:
    """Who a git request runs as: anonymous (``user`` None), a user with token scopes, or
    a deploy token (``deploy``: its scopes per project)."""

    user: User | None = None
    scopes: frozenset[str] = frozenset()
    deploy: DeployGrant | None = None


class _Refused(Exception):
    def __init__(self, response: Response) -> None:
        super().__init__(response.status)
        self.response = response


def text(status: int, message: str, headers: list[tuple[str, str]] | None = None) -> Response:
    """A plain text answer, as git shows it to its user."""
    return Response(
        status,
        [("Content-Type", "text/plain; charset=utf-8"), *(headers or [])],
        message.encode(),
    )


def challenge() -> Response:
    """401 with git's Basic challenge, so that it asks for credentials."""
    return text(401, ACCESS_DENIED, [("WWW-Authenticate", CHALLENGE)])


def authenticate(ctx: Context) -> GitCaller:
    """The caller of HTTP Basic credentials; 401 (as ``_Refused``) when they are wrong."""
    header = ctx.request.header("authorization")
    if not header:
        return GitCaller()
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "basic":
        raise _Refused(challenge())
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise _Refused(challenge()) from None
    username, _, password = decoded.partition(":")
    found = _token_caller(ctx, password) or _password_caller(ctx, username, password)
    if found is None:
        found = _deploy_caller(ctx, username, password)
    elif found.user is None or found.user.state != "active":
        found = None
    if found is None:
        raise _Refused(challenge())
    return found


def _deploy_caller(ctx: Context, username: str, secret: str) -> GitCaller | None:
    for lookup in listeners(ctx.store, DEPLOY_TOKEN_LOOKUP):
        grant = lookup(ctx.store, username, secret, ctx.now)
        if grant is not None:
            return GitCaller(deploy=grant)
    return None


def _token_caller(ctx: Context, secret: str) -> GitCaller | None:
    token = find_secret(ctx.store, secret) if secret else None
    if token is None or not token.active(ctx.now):
        return None
    return GitCaller(users(ctx.store).get(token.user_id), frozenset(token.scopes))


def _password_caller(ctx: Context, username: str, password: str) -> GitCaller | None:
    user = find_by_username(ctx.store, username) if username and password else None
    if user is None or user.two_factor_enabled or user.password_digest is None:
        return None
    if user.password_digest != hash_password(password):
        return None
    return GitCaller(user, PASSWORD_SCOPES)


def _project(ctx: Context) -> Project | None:
    project = find_project(ctx.store, ctx.path_params["repo_path"].strip("/"))
    if project is None or project.marked_for_deletion_on is not None:
        return None
    return project


def hidden(user: User | None) -> Response:
    """The answer for a project the caller cannot see: git's challenge to an anonymous
    caller (so it asks for credentials), 404 to a signed-in one."""
    return challenge() if user is None else text(404, PROJECT_NOT_FOUND)


def read_refusal(caller: GitCaller, readable: bool, pushing: bool) -> Response | None:
    """The answer refusing a caller who sees the project, or None: the challenge to an
    anonymous caller who pushes or cannot read, 403 to one who cannot read or whose
    token has no scope to read code."""
    user = caller.user
    if user is None and (pushing or not readable):
        return challenge()
    if not readable or (user is not None and not caller.scopes & READ_SCOPES):
        return text(403, DOWNLOAD_DENIED)
    return None


@attrs.frozen
class GitTarget:
    """The repository a smart HTTP request reaches, and what a push to it may do."""

    repo: Repository
    can_push: bool
    on_ref_update: RefListener
    authorize: RefAuthorizer | None = None


# (context, caller, pushing) -> the repository to serve, or the answer refusing it
Resolver = Callable[[Context, GitCaller, bool], "GitTarget | Response"]


def serve(ctx: Context, subpath: str, service: str | None, resolve: Resolver) -> Response:
    """Answer one smart HTTP request: credentials, then ``resolve``, then git's protocol."""
    try:
        caller = authenticate(ctx)
    except _Refused as refusal:
        return refusal.response
    target = resolve(ctx, caller, service == RECEIVE_PACK)
    if isinstance(target, Response):
        return target
    status, headers, body = handle(
        target.repo,
        ctx.request.method,
        subpath,
        ctx.raw,
        ctx.request.headers,
        ctx.request.body,
        can_push=target.can_push,
        on_ref_update=target.on_ref_update,
        authorize=target.authorize,
    )
    return Response(status, headers, body)


def _code(ctx: Context, caller: GitCaller, pushing: bool) -> GitTarget | Response:
    """A project's code repository, as git over HTTP may reach it."""
    store, now = ctx.store, ctx.now
    user = caller.user
    project = _project(ctx)
    if caller.deploy is not None:
        if project is None or not caller.deploy(project) & READ_SCOPES:
            return text(404, PROJECT_NOT_FOUND)
    elif project is None or not can_read_project(store, user, project, now):
        return hidden(user)
    readable = caller.deploy is not None or can_read_code(store, user, project, now)
    refused = read_refusal(caller, readable, pushing)
    if refused is not None:
        return refused
    if pushing and user is not None and repository_read_only(store, project):
        return text(403, READ_ONLY)
    level = project_role(store, user, project, now)
    repo = read_repository(store, project)
    return GitTarget(
        repo,
        can_push=pushing and bool(caller.scopes & WRITE_SCOPES) and can_push_code(project, level),
        on_ref_update=lambda updates: record_change(
            store, project, repo, now, updates=updates, user=user
        ),
        authorize=_RefRules(ctx, project, repo, level, user).check,
    )


class _RefRules:
    """The protected branch rules of one push, judged against the repository as it was."""

    def __init__(
        self, ctx: Context, project: Project, repo: Repository, level: int, user: Any
    ) -> None:
        self.user = user
        self.store = ctx.store
        self.project = project
        self.repo = repo
        self.level = level
        self.was_empty = repo.is_empty

    def check(self, update: RefUpdate) -> str | None:
        """The protected branch and tag rules' refusal, else the push rules' (``PUSH_CHECK``)."""
        found = self._protected(update)
        return found or push_refusal(self.store, self.project, self.repo, update, self.user)

    def _protected(self, update: RefUpdate) -> str | None:
        branch = update.branch
        if update.tag is not None:
            return protected_tags.push_refusal(
                self.store,
                self.project.id,
                update.tag,
                self.level,
                created=update.created,
                deleted=update.deleted,
            )
        if branch is None:
            return None
        rules = [] if self.was_empty else protected.rules_for(self.store, self.project.id, branch)
        if update.deleted:
            return DELETE_PROTECTED if rules else None
        forced = not update.created and not self.repo.is_ancestor(update.old, update.new)
        if rules and forced and not any(rule.allow_force_push for rule in rules):
            return FORCE_PUSH_PROTECTED
        if not can_push_branch(
            self.store, self.project, self.repo, branch, self.level, was_empty=self.was_empty
        ):
            return CREATE_PROTECTED if update.created and rules else PUSH_PROTECTED
        return None


# The media types of each smart HTTP answer (errors are text).
ADVERTISEMENTS = (
    f"application/x-{UPLOAD_PACK}-advertisement",
    f"application/x-{RECEIVE_PACK}-advertisement",
)


def register_smart_http(
    router: AreaRouter, base: str, resolve: Resolver, *, name: str = "", what: str = ""
) -> None:
    """Declare git's three smart HTTP endpoints under ``base`` on ``router``, serving the
    repositories ``resolve`` finds. The handlers are named ``<name>info_refs`` (and so on)
    and belong to the resolver's module (the OpenAPI document tags them with its area);
    ``what`` ends their summaries."""

    def declare(method: str, subpath: str, service: str | None, summary: str) -> None:
        handler_name = name + ("info_refs" if service is None else service[4:].replace("-", "_"))

        def handler(ctx: Context) -> Response:
            asked = ctx.raw.get("service") if service is None else service
            return serve(ctx, subpath, asked if isinstance(asked, str) else None, resolve)

        handler.__name__ = handler.__qualname__ = handler_name
        handler.__module__ = resolve.__module__
        kinds = ADVERTISEMENTS if service is None else (f"application/x-{service}-result",)
        router.route(
            method, base + subpath, auth=NO_AUTH, prefix="", summary=summary + what, produces=kinds
        )(handler)

    declare("GET", "/info/refs", None, "git ref advertisement")
    declare("POST", "/" + UPLOAD_PACK, UPLOAD_PACK, "git fetch and clone: send objects")
    declare("POST", "/" + RECEIVE_PACK, RECEIVE_PACK, "git push: receive objects and move refs")


for _suffix in (".git", ""):
    register_smart_http(api, "/*repo_path" + _suffix, _code)
