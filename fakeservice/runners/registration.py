"""Runner registration tokens: the instance's, each group's (``runners_token`` of the
group record, shown to its owners) and each project's.

Until reset, the instance's token is ``GR1348941i00000000000``, a group's
``GR1348941<id:012d>`` and a project's ``GR1348941p<id:011d>``; a reset (or a scenario)
stores a new one in the ``runner_registration_tokens`` table, found by token through its
unique index (and for a group also written to the group record). The application
settings show the instance's (``runners_registration_token``), a project's details show
its own to maintainers (``runners_token``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import attrs

from fakeservice.core.store import Store, Table
from fakeservice.groups.models import namespaces
from fakeservice.members.access import project_role
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.models import projects

PREFIX = "GR1348941"
INSTANCE = "instance"
GROUP = "group"
PROJECT = "project"
_INSTANCE_DEFAULT = f"{PREFIX}i00000000000"
_GROUP_DEFAULT = re.compile(rf"^{PREFIX}(\d{{12}})$")
_PROJECT_DEFAULT = re.compile(rf"^{PREFIX}p(\d{{11}})$")


@attrs.define(slots=True)
class RegistrationToken:
    id: int
    kind: str
    owner_id: int
    token: str


def tokens(store: Store) -> Table[RegistrationToken]:
    return store.tables["runner_registration_tokens"]


def install(store: Store) -> None:
    table = store.table("runner_registration_tokens")
    table.add_unique("token", lambda t: t.token)
    table.add_unique("owner", lambda t: (t.kind, t.owner_id))


def _default(kind: str, owner_id: int) -> str:
    if kind == INSTANCE:
        return _INSTANCE_DEFAULT
    if kind == GROUP:
        return f"{PREFIX}{owner_id:012d}"
    return f"{PREFIX}p{owner_id:011d}"


def token_of(store: Store, kind: str, owner_id: int = 0) -> str:
    """The current registration token of the instance, a group or a project."""
    if kind == GROUP:
        group = namespaces(store).get(owner_id)
        if group is not None and group.runners_token:
            return group.runners_token
    record = tokens(store).by("owner", (kind, owner_id))
    return record.token if record is not None else _default(kind, owner_id)


def set_token(store: Store, kind: str, owner_id: int, token: str | None = None) -> str:
    """Replace a registration token (a fresh one unless ``token`` is given)."""
    if token is None:
        number = store.next_id("runner_registration_tokens")
        token = PREFIX + hashlib.sha256(f"registration:{number}".encode()).hexdigest()[:20]
    table = tokens(store)
    record = table.by("owner", (kind, owner_id))
    if record is None:
        number = store.next_id("runner_registration_token_rows")
        table.insert(RegistrationToken(number, kind, owner_id, token))
    else:
        table.update(record, token=token)
    if kind == GROUP:
        group = namespaces(store).get(owner_id)
        if group is not None:
            namespaces(store).update(group, runners_token=token)
    return token


def owner_of(store: Store, token: str) -> tuple[str, int] | None:
    """Whose registration token ``token`` is (``(kind, owner id)``), or None."""
    if not token:
        return None
    record = tokens(store).by("token", token)
    if record is not None:
        return record.kind, record.owner_id
    if token == _INSTANCE_DEFAULT and tokens(store).by("owner", (INSTANCE, 0)) is None:
        return INSTANCE, 0
    found = _GROUP_DEFAULT.match(token)
    if found:
        group = namespaces(store).get(int(found.group(1)))
        if group is not None and group.is_group and group.runners_token == token:
            return GROUP, group.id
        return None
    found = _PROJECT_DEFAULT.match(token)
    if found:
        project_id = int(found.group(1))
        reset = tokens(store).by("owner", (PROJECT, project_id))
        if project_id in projects(store) and reset is None:
            return PROJECT, project_id
    return None


def show_instance_token(store: Store, out: dict[str, Any]) -> None:
    """Application settings show the instance's registration token."""
    out["runners_registration_token"] = token_of(store, INSTANCE)


def show_project_token(ctx: Any, project: Any, out: dict[str, Any]) -> None:
    """A project's details show its registration token to its maintainers."""
    if project_role(ctx.store, ctx.user, project, ctx.now) >= MAINTAINER:
        out["runners_token"] = token_of(ctx.store, PROJECT, project.id)
