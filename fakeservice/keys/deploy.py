"""Deploy keys: SSH keys owned by no user (rows of the SSH key table, so a fingerprint is
unique across user and deploy keys) linked to projects, each link with its ``can_push``.
Adding a key a project already has returns it; adding a known deploy key links it."""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.store import Store, Table
from fakeservice.keys import ssh
from fakeservice.keys.models import SSHKey, add_ssh_key, ssh_keys
from fakeservice.projects.models import Project


@attrs.define(slots=True)
class DeployKeyLink:
    id: int
    key_id: int
    project_id: int
    can_push: bool
    created_at: dt.datetime


def links(store: Store) -> Table[DeployKeyLink]:
    return store.tables["deploy_keys_projects"]


def install(store: Store) -> None:
    table = store.table("deploy_keys_projects")
    table.add_unique("pair", lambda link: (link.key_id, link.project_id))
    table.add_sorted("project", lambda link: link.project_id)
    table.add_sorted("key", lambda link: link.key_id)


def deploy_key(store: Store, key_id: int) -> SSHKey | None:
    key = ssh_keys(store).get(key_id)
    return key if key is not None and key.user_id is None else None


def link_of(store: Store, key_id: int, project_id: int) -> DeployKeyLink | None:
    return links(store).by("pair", (key_id, project_id))


def link(
    store: Store, now: dt.datetime, key: SSHKey, project_id: int, can_push: bool
) -> DeployKeyLink:
    """The link of ``key`` to the project (made when missing)."""
    found = link_of(store, key.id, project_id)
    if found is not None:
        return found
    made = DeployKeyLink(
        id=store.next_id("deploy_keys_projects"),
        key_id=key.id,
        project_id=project_id,
        can_push=can_push,
        created_at=now,
    )
    links(store).insert(made)
    return made


def add_deploy_key(
    store: Store,
    now: dt.datetime,
    project_id: int,
    *,
    title: str | None,
    key: str | None,
    can_push: bool,
    expires_at: dt.datetime | None,
) -> DeployKeyLink:
    """Link the deploy key of the same fingerprint, or validate and create one."""
    parsed = ssh.parse(key or "")
    existing = ssh_keys(store).by("fingerprint", parsed.fingerprint_sha256) if parsed else None
    if existing is None or existing.user_id is not None:
        existing = add_ssh_key(
            store, now, user_id=None, title=title, key=key, expires_at=expires_at
        )
    return link(store, now, existing, project_id, can_push)


def unlink(store: Store, found: DeployKeyLink) -> None:
    """Remove the link; a key left on no project is deleted."""
    links(store).delete(found)
    if not links(store).select("key", [found.key_id]).count(1):
        key = ssh_keys(store).get(found.key_id)
        if key is not None:
            ssh_keys(store).delete(key)


def forget_project(store: Store, project: Project) -> None:
    """Drop the links of a deleted project (PROJECT_DELETED listener)."""
    for found in list(links(store).select("project", [project.id])):
        unlink(store, found)
