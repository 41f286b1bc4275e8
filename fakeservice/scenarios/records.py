"""Building records from a scenario: users and their tokens, groups, projects, members.

Records refer to each other by username or full path, never by id. Keys that areas
registered on projects and groups (:mod:`.sections`) are collected while records are
built and handed to their loaders once every record exists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, ExitStack
from typing import TYPE_CHECKING, Any

from fakeservice.access_tokens.models import create_resource_token
from fakeservice.core.clock import as_time
from fakeservice.groups.models import Namespace, create_group, find_group, find_namespace
from fakeservice.members.models import NAMESPACE, PROJECT, ROLE_BY_NAME, add_member, find_member
from fakeservice.projects.models import Project, create_project, projects
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_group, named_user
from fakeservice.tokens.models import find_secret, issue_token
from fakeservice.users.models import Identity, User, UserStatus, create_user

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


def _when(value: Any) -> dt.datetime:
    return as_time(value)


def _date(value: Any) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))


def generated(
    item: Mapping[str, Any], patterns: Mapping[str, str | None], where: str
) -> Iterator[tuple[dict[str, Any], str]]:
    """The specs of ``generate: N`` items: ``patterns`` keys are formatted with ``{n}``
    (a None default leaves the key out when the item does not give it)."""
    start = int(item.get("start", 1))
    common = {k: v for k, v in item.items() if k not in ("generate", "start", *patterns)}
    for n in range(start, start + int(item["generate"])):
        spec = dict(common)
        for key, default in patterns.items():
            pattern = item.get(key, default)
            if pattern is not None:
                try:
                    spec[key] = str(pattern).format(n=n)
                except (IndexError, KeyError, ValueError) as exc:
                    raise ScenarioError(
                        [(f"{where}.{key}", f"bad pattern {pattern!r}: use {{n}}")]
                    ) from exc
        yield spec, f"{where}[{n}]"


def role_level(value: Any, where: str) -> int:
    if isinstance(value, int):
        return value
    level = ROLE_BY_NAME.get(str(value).lower())
    if level is None:
        raise ScenarioError(
            [
                (
                    where,
                    f"unknown role {value!r}; use guest, reporter, developer, maintainer or owner",
                )
            ]
        )
    return level


USER_FIELDS = (
    "bio", "location", "public_email", "skype", "linkedin", "twitter", "website_url",
    "organization", "job_title", "note", "projects_limit", "can_create_group", "private_profile",
    "external", "state", "two_factor_enabled", "commit_email", "user_type", "theme_id",
    "color_scheme_id", "followers", "following",
)  # fmt: skip
# set on a user once it exists, with last_activity_on (a user given none of them is
# indexed once, as created)
USER_EXTRAS = ("identities", "custom_attributes", "status")
GROUP_FIELDS = (
    "description", "visibility", "request_access_enabled", "lfs_enabled", "share_with_group_lock",
    "require_two_factor_authentication", "project_creation_level", "subgroup_creation_level",
    "default_branch_protection", "emails_disabled", "mentions_disabled", "auto_devops_enabled",
)  # fmt: skip
PROJECT_FIELDS = (
    "description", "visibility", "default_branch", "archived", "topics", "star_count",
    "forks_count", "open_issues_count", "repository_storage", "ci_config_path",
    "request_access_enabled", "lfs_enabled", "shared_runners_enabled", "public_jobs",
)  # fmt: skip


class RecordLoader:
    """Creates the records of one scenario document in a service's store."""

    def __init__(self, service: FakeService) -> None:
        self.service = service
        self.store = service.store
        self.now = service.clock.now()
        # (section kind, key, record, value, where) for the keys areas registered
        self.pending: list[tuple[str, str, Any, Any, str]] = []

    def sorted_at_end(self, *tables: str) -> AbstractContextManager[None]:
        """The store's ``tables`` (those it has) put their new records in their sorted
        indexes once, at the end (:meth:`~fakeservice.core.store.Table.deferring`): for
        the users and projects sections, which look records up by name only."""
        stack = ExitStack()
        for name in tables:
            table = self.store.tables.get(name)
            if table is not None:
                stack.enter_context(table.deferring())
        return stack

    def _collect(self, kind: str, record: Any, item: Mapping[str, Any], where: str) -> None:
        for name in self.service.sections.sections(kind):
            if name in item:
                self.pending.append((kind, name, record, item[name], f"{where}.{name}"))

    def run_sections(self) -> None:
        """Hand registered keys to their loaders: section by section, records in order."""
        for kind in ("group", "project"):
            for name, section in self.service.sections.sections(kind).items():
                if section.handler is None:
                    continue
                for entry_kind, key, record, value, where in self.pending:
                    if entry_kind == kind and key == name:
                        section.handler(self.service, record, value, where)

    def _require(self, item: Any, key: str, where: str) -> Any:
        if not isinstance(item, Mapping):
            raise ScenarioError([(where, "must be a mapping")])
        if key not in item or item[key] in (None, ""):
            raise ScenarioError([(where, f"{key} is required")])
        return item[key]

    def _user(self, username: Any, where: str) -> User:
        return named_user(self.store, username, where)

    # -- users ---------------------------------------------------------------------------
    def user(self, item: Any, where: str) -> None:
        if isinstance(item, Mapping) and "generate" in item:
            self._generate_users(item, where)
            return
        username = self._require(item, "username", where)
        fields = {k: item[k] for k in USER_FIELDS if k in item}
        created = item.get("created_at")
        now = _when(created) if created is not None else self.now
        user = create_user(
            self.store,
            now,
            username=str(username),
            name=str(item.get("name") or username),
            email=str(item.get("email") or f"{username}@example.com"),
            admin=bool(item.get("admin", False)),
            password=item.get("password"),
            **fields,
        )
        if "last_activity_on" in item or any(item.get(key) for key in USER_EXTRAS):
            self._user_extras(user, item)
        for index, token in enumerate(item.get("tokens") or []):
            self._token(user, token, f"{where}.tokens[{index}]")
        for index, token in enumerate(item.get("oauth_tokens") or []):
            self._oauth(user, token, f"{where}.oauth_tokens[{index}]")
        for index, token in enumerate(item.get("impersonation_tokens") or []):
            self._token(user, token, f"{where}.impersonation_tokens[{index}]", kind="impersonation")
        if item.get("session"):
            self.store.extras.setdefault("sessions", {})[str(item["session"])] = user.id

    def _user_extras(self, user: User, item: Mapping[str, Any]) -> None:
        """What a scenario may say of a user beyond its creation fields."""
        if item.get("identities"):
            user.identities = [
                Identity(str(i["provider"]), str(i["extern_uid"]), i.get("saml_provider_id"))
                for i in item["identities"]
            ]
        if item.get("custom_attributes"):
            user.custom_attributes = {str(k): str(v) for k, v in item["custom_attributes"].items()}
        if item.get("status"):
            status = item["status"]
            user.status = UserStatus(
                emoji=status.get("emoji"),
                message=status.get("message"),
                availability=status.get("availability", "not_set"),
            )
        if "last_activity_on" in item:
            user.last_activity_on = _date(item["last_activity_on"])
        self.store.table("users").reindex(user)

    def _generate_users(self, item: Mapping[str, Any], where: str) -> None:
        patterns = {"username": "user{n}", "name": "User {n}"}
        for spec, spec_where in generated(item, patterns, where):
            self.user(spec, spec_where)

    def _token(self, user: User, spec: Any, where: str, kind: str = "personal") -> None:
        secret = self._require(spec, "token", where)
        issue_token(
            self.store,
            self.now,
            kind=kind,
            user_id=user.id,
            name=str(spec.get("name", f"{user.username}-token")),
            scopes=list(spec.get("scopes") or ["api"]),
            token=str(secret),
            expires_at=_date(spec.get("expires_at")),
        )
        if spec.get("revoked"):
            self._revoke(str(secret))

    def _oauth(self, user: User, spec: Any, where: str) -> None:
        secret = self._require(spec, "token", where)
        expires_in = spec.get("expires_in", 7200)
        expires = None if expires_in is None else self.now + dt.timedelta(seconds=int(expires_in))
        issue_token(
            self.store,
            self.now,
            kind="oauth",
            user_id=user.id,
            name="oauth",
            scopes=list(spec.get("scopes") or ["api"]),
            token=str(secret),
            expires_at_time=expires,
            refresh_token=spec.get("refresh_token"),
        )
        if spec.get("revoked"):
            self._revoke(str(secret))

    def _revoke(self, secret: str) -> None:
        token = find_secret(self.store, secret)
        if token is not None:
            token.revoked = True

    # -- groups --------------------------------------------------------------------------
    def group(self, item: Any, parent: Namespace | None, where: str) -> None:
        if isinstance(item, Mapping) and "generate" in item:
            for spec, spec_where in generated(item, {"path": "group-{n}", "name": None}, where):
                self.group(spec, parent, spec_where)
            return
        path = str(self._require(item, "path", where))
        if parent is None and "/" in path:
            parent_path, _, path = path.rpartition("/")
            parent = find_group(self.store, parent_path)
            if parent is None:
                raise ScenarioError([(where, f"unknown parent group {parent_path!r}")])
        fields = {k: item[k] for k in GROUP_FIELDS if k in item}
        fields.setdefault("visibility", parent.visibility if parent else "public")
        created = item.get("created_at")
        group = create_group(
            self.store,
            _when(created) if created is not None else self.now,
            name=str(item.get("name") or path),
            path=path,
            parent=parent,
            **fields,
        )
        if item.get("custom_attributes"):
            group.custom_attributes = {str(k): str(v) for k, v in item["custom_attributes"].items()}
        if item.get("statistics"):
            group.statistics = {str(k): int(v) for k, v in item["statistics"].items()}
        for index, member in enumerate(item.get("members") or []):
            self._member(NAMESPACE, group.id, member, f"{where}.members[{index}]")
        self._collect("group", group, item, where)
        for index, child in enumerate(item.get("subgroups") or []):
            self.group(child, group, f"{where}.subgroups[{index}]")

    # -- projects ------------------------------------------------------------------------
    def project(self, item: Any, where: str) -> None:
        if isinstance(item, Mapping) and "generate" in item:
            for spec, spec_where in generated(item, {"path": "project-{n}", "name": None}, where):
                self.project(spec, spec_where)
            return
        full_path = str(self._require(item, "path", where))
        namespace_path, _, path = full_path.rpartition("/")
        if not namespace_path:
            raise ScenarioError([(where, "path must be <namespace>/<project>")])
        namespace = find_namespace(self.store, namespace_path)
        if namespace is None:
            raise ScenarioError([(where, f"unknown namespace {namespace_path!r}")])
        creator_name = item.get("creator")
        if creator_name is not None:
            creator = self._user(creator_name, where)
        elif namespace.kind == "user":
            creator = self.store.tables["users"].get(namespace.owner_id)
        else:
            creator = None
        fields = {k: item[k] for k in PROJECT_FIELDS if k in item}
        if "topics" in fields:
            fields["topics"] = [str(t) for t in fields["topics"]]
        created = item.get("created_at")
        now = _when(created) if created is not None else self.now
        project = create_project(
            self.store,
            now,
            namespace=namespace,
            creator_id=creator.id if creator else None,
            name=str(item.get("name") or path),
            path=path,
            **fields,
        )
        if item.get("custom_attributes"):
            project.custom_attributes = {
                str(k): str(v) for k, v in item["custom_attributes"].items()
            }
        if "features" in item:
            project.features.update({str(k): str(v) for k, v in item["features"].items()})
        for index, member in enumerate(item.get("members") or []):
            self._member(PROJECT, project.id, member, f"{where}.members[{index}]")
        for index, share in enumerate(item.get("shared_with") or []):
            at = f"{where}.shared_with[{index}]"
            group = named_group(self.store, self._require(share, "group", at), at)
            project.shared_with_groups.append(
                {
                    "group_id": group.id,
                    "group_access_level": role_level(share.get("role", "developer"), where),
                    "expires_at": _date(share.get("expires_at")),
                }
            )
        projects(self.store).reindex(project)
        for index, token in enumerate(item.get("access_tokens") or []):
            self._project_token(project, token, f"{where}.access_tokens[{index}]")
        self._collect("project", project, item, where)

    def _project_token(self, project: Project, spec: Any, where: str) -> None:
        secret = self._require(spec, "token", where)
        create_resource_token(
            self.store,
            self.now,
            kind="project",
            resource_id=project.id,
            name=str(spec.get("name", "project token")),
            scopes=list(spec.get("scopes") or ["api"]),
            access_level=role_level(spec.get("role", "maintainer"), where),
            expires_at=_date(spec.get("expires_at")),
            secret=str(secret),
        )

    def _member(self, kind: str, source_id: int, spec: Any, where: str) -> None:
        user = self._user(self._require(spec, "user", where), where)
        level = role_level(spec.get("role", "developer"), where)
        if find_member(self.store, kind, source_id, user.id) is not None:
            raise ScenarioError([(where, f"{user.username} is already a member")])
        add_member(
            self.store,
            self.now,
            kind=kind,
            source_id=source_id,
            user_id=user.id,
            access_level=level,
            expires_at=_date(spec.get("expires_at")),
        )
