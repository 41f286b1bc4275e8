"""Enforcing a project's push rule: one check for git pushes and for commits made through
the API (the repository's ``PUSH_CHECK`` event), with the service's messages.

A ref update is judged by its ref (tag deletion, branch name) and by each commit it
brings that the repository did not have on the updated branch (or, for a new branch, on
the default branch): message patterns, DCO sign-off, signature, author and committer
emails and names, and the files the commit changed (name pattern, secrets, size).
"""

from __future__ import annotations

import re
from typing import Any

from fakeservice.core.store import Store
from fakeservice.projects.models import Project
from fakeservice.push_rules.models import PROJECT, PushRule, find
from fakeservice.repository.compare import compare
from fakeservice.repository.git import ZERO_SHA, CommitInfo, RefUpdate, Repository
from fakeservice.users.models import User, find_by_email

MIB = 1024 * 1024
DCO = re.compile(r"^Signed-off-by: .+ <.+>\s*$", re.MULTILINE)
# file names the service refuses with ``prevent_secrets`` (a subset of its list)
SECRETS = re.compile(
    r"(^|/)(id_rsa|id_dsa|id_ecdsa|id_ed25519|\.env|secrets\.yml|credentials\.xml|"
    r"\.htpasswd|[^/]*\.pem|[^/]*\.key|[^/]*\.p12|[^/]*\.pfx|\.netrc|_netrc|\.git-credentials|"
    r"\.bash_history|\.pgpass|\.s3cfg|\.dockercfg|\.docker/config\.json)$"
)


def refusal(
    store: Store, project: Project, repo: Repository, update: RefUpdate, user: User | None
) -> str | None:
    """Why the project's push rule refuses ``update`` (None when it allows it)."""
    rule = find(store, PROJECT, project.id)
    if rule is None:
        return None
    if update.tag is not None:
        return "You cannot delete a tag" if update.deleted and rule.deny_delete_tag else None
    branch = update.branch
    if branch is None or update.deleted:
        return None
    if rule.branch_name_regex and update.created and not re.search(rule.branch_name_regex, branch):
        return f"Branch name does not follow the pattern '{rule.branch_name_regex}'"
    for info in new_commits(repo, update):
        found = commit_refusal(store, rule, repo, info, user)
        if found:
            return found
    return None


def new_commits(repo: Repository, update: RefUpdate) -> list[CommitInfo]:
    """The commits ``update`` brings (oldest first)."""
    base = update.old if update.old != ZERO_SHA else None
    if base is None:
        default = repo.branch(repo.default_branch)
        base = (
            default.commit_id if default is not None and default.commit_id != update.new else None
        )
    if base is None:
        return list(reversed(repo.commits(update.new)))
    return compare(repo, base, update.new, straight=False).commits


def commit_refusal(
    store: Store, rule: PushRule, repo: Repository, info: CommitInfo, user: User | None
) -> str | None:
    message = info.message
    if rule.commit_message_regex and not re.search(rule.commit_message_regex, message):
        return f"Commit message does not follow the pattern '{rule.commit_message_regex}'"
    negative = rule.commit_message_negative_regex
    if negative and re.search(negative, message):
        return f"Commit message contains the forbidden pattern '{negative}'"
    if rule.reject_non_dco_commits and not DCO.search(message):
        return "Commit message must contain a DCO signoff"
    if rule.reject_unsigned_commits and not _signed(repo, info.id):
        return "Commit must be signed with a GPG key"
    found = _people_refusal(store, rule, info, user)
    return found or _files_refusal(rule, repo, info)


def _people_refusal(
    store: Store, rule: PushRule, info: CommitInfo, user: User | None
) -> str | None:
    pattern = rule.author_email_regex
    if pattern and not re.search(pattern, info.author_email):
        return (
            f"Author's commit email '{info.author_email}' does not follow the pattern '{pattern}'"
        )
    if pattern and not re.search(pattern, info.committer_email):
        return f"Committer's email '{info.committer_email}' does not follow the pattern '{pattern}'"
    if rule.member_check and find_by_email(store, info.author_email) is None:
        return f"Author '{info.author_email}' is not a member of team"
    if user is None:
        return None
    if rule.commit_committer_check and info.committer_email.lower() not in _emails(store, user):
        return (
            f"You cannot push commits for '{info.committer_email}'. You can only push commits "
            "if the committer email is one of your own verified emails."
        )
    if rule.commit_committer_name_check and info.committer_name != user.name:
        return "Your git username is inconsistent with GitLab account name"
    return None


def _files_refusal(rule: PushRule, repo: Repository, info: CommitInfo) -> str | None:
    if not (rule.file_name_regex or rule.prevent_secrets or rule.max_file_size):
        return None
    for entry in repo.diff(info.id):
        if entry.deleted_file:
            continue
        path = entry.new_path
        if rule.file_name_regex and re.search(rule.file_name_regex, path):
            return f'File name {path} was prohibited by the pattern "{rule.file_name_regex}".'
        if rule.prevent_secrets and SECRETS.search(path):
            return f'File name {path} was prohibited by the pattern "{SECRETS.pattern}".'
        if rule.max_file_size and len(repo.raw(info.id, path)) > rule.max_file_size * MIB:
            return (
                f"File {path!r} is larger than the allowed size of {rule.max_file_size} MiB. "
                "Use Git LFS to manage this file."
            )
    return None


def _signed(repo: Repository, sha: str) -> bool:
    obj: Any = repo.object_store[sha.encode()]
    return bool(getattr(obj, "gpgsig", None))


def _emails(store: Store, user: User) -> set[str]:
    """The user's verified emails: the primary, the commit email and confirmed secondary ones."""
    found = {e.lower() for e in (user.email, user.commit_email) if e}
    emails = store.tables.get("emails")
    if emails is not None:
        for record in emails.select("user", [user.id]):
            if record.confirmed_at is not None:
                found.add(record.email.lower())
    return found
