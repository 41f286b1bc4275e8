"""Load a YAML scenario into a service: clock, users and tokens, groups, projects, members.

Records refer to each other by username or full path, never by id. A scenario that fails
to load leaves the service exactly as it was (the loader restores a snapshot).

Each area that adds scenario content registers a section loader with
:func:`register_section`; sections run in registration order after the core ones.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from fakeservice.core.clock import Clock, parse_iso
from fakeservice.core.errors import ApiError
from fakeservice.groups.models import Namespace, create_group, find_group, find_namespace
from fakeservice.members.models import NAMESPACE, PROJECT, ROLE_BY_NAME, add_member, find_member
from fakeservice.projects.models import Project, create_project, projects
from fakeservice.tokens.models import issue_token
from fakeservice.users.models import Identity, User, UserStatus, create_user, find_by_username

if TYPE_CHECKING:
    from fakeservice.service import FakeService

BUILTIN_DIR = Path(__file__).parent / "builtin"

SectionLoader = Callable[["FakeService", Mapping[str, Any]], None]
_sections: list[tuple[str, SectionLoader]] = []


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; ``problems`` lists ``(where, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{where}: {message}" for where, message in problems))


def register_section(name: str, loader: SectionLoader) -> None:
    """Add a loader for a top-level scenario key handled by another area."""
    if all(existing != name for existing, _ in _sections):
        _sections.append((name, loader))


def read_scenario(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(source, Mapping):
        return dict(source)
    path = Path(source)
    if str(source) == "default":
        path = BUILTIN_DIR / "default.yaml"
    elif not path.exists() and (BUILTIN_DIR / f"{source}.yaml").exists():
        path = BUILTIN_DIR / f"{source}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError([(str(path), f"cannot read the file: {exc.strerror}")]) from exc
    except yaml.YAMLError as exc:
        raise ScenarioError([(str(path), f"not valid YAML: {exc}")]) from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ScenarioError([(str(path), "a scenario must be a mapping at the top level")])
    return data


def load_into(service: FakeService, source: str | Path | Mapping[str, Any]) -> None:
    data = read_scenario(source)
    before = service.snapshot()
    try:
        _load(service, data)
    except ScenarioError:
        service.restore(before)
        raise
    except ApiError as exc:
        service.restore(before)
        raise ScenarioError([("scenario", _api_message(exc))]) from exc
    except (KeyError, TypeError, ValueError) as exc:
        service.restore(before)
        raise ScenarioError([("scenario", f"{type(exc).__name__}: {exc}")]) from exc


def _api_message(exc: ApiError) -> str:
    body = exc.body
    if isinstance(body, dict):
        message = body.get("message", body.get("error"))
        if isinstance(message, dict):
            return "; ".join(f"{k} {', '.join(v)}" for k, v in message.items())
        return str(message)
    return str(body)


def _load(service: FakeService, data: Mapping[str, Any]) -> None:
    if "clock" in data:
        _load_clock(service.clock, data["clock"])
    loader = _Loader(service)
    for index, item in enumerate(data.get("users") or []):
        loader.user(item, f"users[{index}]")
    for index, item in enumerate(data.get("groups") or []):
        loader.group(item, None, f"groups[{index}]")
    for index, item in enumerate(data.get("projects") or []):
        loader.project(item, f"projects[{index}]")
    for name, section in _sections:
        if name in data:
            section(service, data)


def _load_clock(clock: Clock, spec: Any) -> None:
    if not isinstance(spec, Mapping):
        raise ScenarioError([("clock", "must be a mapping with mode and start")])
    start = spec.get("start")
    when = _when(start) if start is not None else clock.now()
    mode = spec.get("mode", clock.mode)
    fresh = Clock(mode, when, anchored=True)
    clock.__dict__.update(fresh.__dict__)


def _when(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day, tzinfo=dt.UTC)
    return parse_iso(str(value))


def _date(value: Any) -> dt.date | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))


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


class _Loader:
    def __init__(self, service: FakeService) -> None:
        self.service = service
        self.store = service.store
        self.now = service.clock.now()

    def _require(self, item: Any, key: str, where: str) -> Any:
        if not isinstance(item, Mapping):
            raise ScenarioError([(where, "must be a mapping")])
        if key not in item or item[key] in (None, ""):
            raise ScenarioError([(where, f"{key} is required")])
        return item[key]

    def _user(self, username: Any, where: str) -> User:
        user = find_by_username(self.store, str(username))
        if user is None:
            raise ScenarioError([(where, f"unknown user {username!r}")])
        return user

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
        user.identities = [
            Identity(str(i["provider"]), str(i["extern_uid"]), i.get("saml_provider_id"))
            for i in item.get("identities") or []
        ]
        user.custom_attributes = {
            str(k): str(v) for k, v in (item.get("custom_attributes") or {}).items()
        }
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
        for index, token in enumerate(item.get("tokens") or []):
            self._token(user, token, f"{where}.tokens[{index}]")
        for index, token in enumerate(item.get("oauth_tokens") or []):
            self._oauth(user, token, f"{where}.oauth_tokens[{index}]")
        for index, token in enumerate(item.get("impersonation_tokens") or []):
            self._token(user, token, f"{where}.impersonation_tokens[{index}]", kind="impersonation")
        if item.get("session"):
            self.store.extras.setdefault("sessions", {})[str(item["session"])] = user.id

    def _generate_users(self, item: Mapping[str, Any], where: str) -> None:
        count = int(item["generate"])
        pattern = str(item.get("username", "user{n}"))
        name_pattern = str(item.get("name", "User {n}"))
        start = int(item.get("start", 1))
        for n in range(start, start + count):
            spec = {
                k: v for k, v in item.items() if k not in ("generate", "start", "username", "name")
            }
            spec["username"] = pattern.format(n=n)
            spec["name"] = name_pattern.format(n=n)
            self.user(spec, f"{where}[{n}]")

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
        from fakeservice.tokens.models import find_secret

        token = find_secret(self.store, secret)
        if token is not None:
            token.revoked = True

    # -- groups --------------------------------------------------------------------------
    def group(self, item: Any, parent: Namespace | None, where: str) -> None:
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
        group.custom_attributes = {
            str(k): str(v) for k, v in (item.get("custom_attributes") or {}).items()
        }
        if item.get("statistics"):
            group.statistics = {str(k): int(v) for k, v in item["statistics"].items()}
        for index, member in enumerate(item.get("members") or []):
            self._member(NAMESPACE, group.id, member, f"{where}.members[{index}]")
        for index, child in enumerate(item.get("subgroups") or []):
            self.group(child, group, f"{where}.subgroups[{index}]")

    # -- projects ------------------------------------------------------------------------
    def project(self, item: Any, where: str) -> None:
        if isinstance(item, Mapping) and "generate" in item:
            count = int(item["generate"])
            pattern = str(item.get("path", "project-{n}"))
            start = int(item.get("start", 1))
            for n in range(start, start + count):
                spec = {
                    k: v for k, v in item.items() if k not in ("generate", "start", "path", "name")
                }
                spec["path"] = pattern.format(n=n)
                if "name" in item:
                    spec["name"] = str(item["name"]).format(n=n)
                self.project(spec, f"{where}[{n}]")
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
        project.custom_attributes = {
            str(k): str(v) for k, v in (item.get("custom_attributes") or {}).items()
        }
        if "features" in item:
            project.features.update({str(k): str(v) for k, v in item["features"].items()})
        for index, member in enumerate(item.get("members") or []):
            self._member(PROJECT, project.id, member, f"{where}.members[{index}]")
        for index, share in enumerate(item.get("shared_with") or []):
            group = find_group(
                self.store, str(self._require(share, "group", f"{where}.shared_with[{index}]"))
            )
            if group is None:
                raise ScenarioError(
                    [(f"{where}.shared_with[{index}]", f"unknown group {share['group']!r}")]
                )
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

    def _project_token(self, project: Project, spec: Any, where: str) -> None:
        secret = self._require(spec, "token", where)
        level = role_level(spec.get("role", "maintainer"), where)
        bot_name = f"project_{project.id}_bot_{self.store.next_id('bots')}"
        bot = create_user(
            self.store,
            self.now,
            username=bot_name,
            name=str(spec.get("name", f"{project.name} bot")),
            email=f"{bot_name}@noreply.example.com",
            user_type="project_bot",
        )
        add_member(
            self.store,
            self.now,
            kind=PROJECT,
            source_id=project.id,
            user_id=bot.id,
            access_level=level,
        )
        issue_token(
            self.store,
            self.now,
            kind="project",
            user_id=bot.id,
            name=str(spec.get("name", "project token")),
            scopes=list(spec.get("scopes") or ["api"]),
            token=str(secret),
            expires_at=_date(spec.get("expires_at")),
            resource_id=project.id,
            access_level=level,
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
