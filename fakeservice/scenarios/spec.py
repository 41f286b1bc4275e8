"""The scenario format, declared once with :mod:`.schema`: what ``fakeservice check``
validates, what the loader relies on, and what ``docs/scenarios.md`` lists.

Records refer to each other by username, group path or project path, never by id.
Areas add keys through :mod:`.sections` (top-level sections, project and group keys,
replay actions); the records here pick them up through ``extra``.
"""

from __future__ import annotations

import yaml

from fakeservice.control.patterns import METHODS
from fakeservice.control.ratelimit import APPLIES_TO
from fakeservice.control.runner import FINISH_STATUSES
from fakeservice.control.snapshots import NAME_RE
from fakeservice.core.clock import CLOCK_MODES
from fakeservice.groups.models import VISIBILITIES
from fakeservice.projects.models import ACCESS_LEVEL_VALUES, FEATURES
from fakeservice.scenarios import sections
from fakeservice.scenarios.schema import (
    ANY,
    BOOL,
    DATE,
    ID_REF,
    INT,
    STR,
    STR_TAG,
    TIME,
    Choice,
    Field,
    ListOf,
    MapOf,
    Nullable,
    OneOf,
    Out,
    Range,
    Record,
    Scalar,
    Variant,
    all_or_none,
    at_least_one,
    exactly_one,
    exclusive,
    only_with,
    problem,
    value_of,
)
from fakeservice.tokens.models import SCOPES
from fakeservice.users.models import STATES, USER_TYPES

ROLES = ("guest", "planner", "reporter", "developer", "maintainer", "owner")
ROLE = OneOf((Range(0, 60), Choice(ROLES)))
SCOPE_LIST = ListOf(Choice(SCOPES))
ATTRIBUTES = MapOf(STR)
POSITIVE = Range(1)
NON_NEGATIVE = Range(0)
HTTP_STATUS = Range(100, 599)
SECONDS = Range(0, integer=False)
FORWARD = Range(0, integer=False, above=True)


def _request_path(value: object) -> None:
    text = str(value)
    if not text.startswith(("/", "${")) and "://" not in text:
        raise ValueError(text)


def _snapshot_name(value: object) -> None:
    text = str(value)
    if "${" not in text and not NAME_RE.match(text):
        raise ValueError(text)


REQUEST_PATH = Scalar(
    "a path starting with `/`, or a full URL", frozenset({STR_TAG}), _request_path
)
SNAPSHOT_NAME = Scalar(
    "a snapshot name (1 to 64 letters, digits, `.`, `_` or `-`)",
    frozenset({STR_TAG}),
    _snapshot_name,
)

# -- users -----------------------------------------------------------------------------------
TOKEN = Record(
    "token",
    {
        "token": Field(STR, "the secret clients send", required=True),
        "name": Field(STR, "the token's name (default `<username>-token`)"),
        "scopes": Field(SCOPE_LIST, "default `[api]`"),
        "expires_at": Field(DATE, "the token stops working on this date"),
        "revoked": Field(BOOL, "the token is revoked"),
    },
    "A personal or impersonation access token with a fixed secret.",
)
OAUTH_TOKEN = Record(
    "oauth_token",
    {
        "token": Field(
            STR, "the access token clients send as `Authorization: Bearer`", required=True
        ),
        "scopes": Field(SCOPE_LIST, "default `[api]`"),
        "expires_in": Field(Nullable(INT), "seconds from load time (default 7200; null: never)"),
        "refresh_token": Field(STR, "for `POST /oauth/token` with `grant_type=refresh_token`"),
        "revoked": Field(BOOL, "the token is revoked"),
    },
    "An OAuth access token.",
)
IDENTITY = Record(
    "identity",
    {
        "provider": Field(STR, "e.g. `ldapmain`, `saml`", required=True),
        "extern_uid": Field(STR, "the user's id at the provider", required=True),
        "saml_provider_id": Field(INT, "for group SAML identities"),
    },
)
STATUS = Record(
    "user_status",
    {
        "emoji": Field(STR, "emoji name"),
        "message": Field(STR, "status text"),
        "availability": Field(Choice(("not_set", "busy")), "default `not_set`"),
    },
)
USER_PROFILE: dict[str, Field] = {
    "name": Field(STR, "display name (default: the username)"),
    "admin": Field(BOOL, "an administrator"),
    "password": Field(STR, "8 characters or more"),
    "created_at": Field(TIME, "default: the clock's start"),
    "state": Field(Choice(STATES), "default `active`"),
    "external": Field(BOOL, "an external user"),
    "user_type": Field(Choice(USER_TYPES), "default `human`"),
    "bio": Field(STR, ""),
    "location": Field(STR, ""),
    "public_email": Field(STR, ""),
    "skype": Field(STR, ""),
    "linkedin": Field(STR, ""),
    "twitter": Field(STR, ""),
    "website_url": Field(STR, ""),
    "organization": Field(STR, ""),
    "job_title": Field(STR, ""),
    "note": Field(STR, "admin note"),
    "commit_email": Field(STR, ""),
    "projects_limit": Field(NON_NEGATIVE, "default 100000 (0 for external users)"),
    "can_create_group": Field(BOOL, "default true (false for external users)"),
    "private_profile": Field(BOOL, ""),
    "two_factor_enabled": Field(BOOL, ""),
    "theme_id": Field(INT, ""),
    "color_scheme_id": Field(INT, ""),
    "followers": Field(NON_NEGATIVE, ""),
    "following": Field(NON_NEGATIVE, ""),
    "last_activity_on": Field(DATE, ""),
    "custom_attributes": Field(ATTRIBUTES, "key: value strings"),
    "status": Field(STATUS, "the user's status"),
}
USER = Record(
    "user",
    {
        "username": Field(STR, "unique; also the personal namespace path", required=True),
        "email": Field(STR, "default `<username>@example.com`"),
        **USER_PROFILE,
        "identities": Field(ListOf(IDENTITY), "external identities"),
        "tokens": Field(ListOf(TOKEN), "personal access tokens"),
        "oauth_tokens": Field(ListOf(OAUTH_TOKEN), "OAuth access tokens"),
        "impersonation_tokens": Field(ListOf(TOKEN), "impersonation tokens"),
        "session": Field(STR, "a `_service_session` cookie value signed in as this user"),
    },
    "One user. Other records name users by `username`.",
)
GENERATED_USERS = Record(
    "generated_users",
    {
        "generate": Field(POSITIVE, "how many users", required=True),
        "start": Field(INT, "the first `n` (default 1)"),
        "username": Field(STR, "a pattern with `{n}`, e.g. `dev{n:03d}` (default `user{n}`)"),
        **USER_PROFILE,
        "name": Field(STR, "a pattern with `{n}` (default `User {n}`)"),
    },
    "Many similar users (`generate: 200`), for paging through large lists.",
)

# -- groups and projects ---------------------------------------------------------------------
MEMBER = Record(
    "member",
    {
        "user": Field(STR, "a username", required=True),
        "role": Field(ROLE, "a role name or access level (default developer)"),
        "expires_at": Field(DATE, "the membership ends on this date"),
    },
)
GROUP = Record(
    "group",
    {
        "path": Field(
            STR, "the group's path; `parent/child` nests under an existing group", required=True
        ),
        "name": Field(STR, "default: the path"),
        "description": Field(STR, ""),
        "visibility": Field(Choice(VISIBILITIES), "default: the parent's, or public"),
        "created_at": Field(TIME, ""),
        "request_access_enabled": Field(BOOL, ""),
        "lfs_enabled": Field(BOOL, ""),
        "share_with_group_lock": Field(BOOL, ""),
        "require_two_factor_authentication": Field(BOOL, ""),
        "project_creation_level": Field(Choice(("noone", "maintainer", "developer", "owner")), ""),
        "subgroup_creation_level": Field(Choice(("owner", "maintainer")), ""),
        "default_branch_protection": Field(Range(0, 4), ""),
        "emails_disabled": Field(BOOL, ""),
        "mentions_disabled": Field(BOOL, ""),
        "auto_devops_enabled": Field(BOOL, ""),
        "custom_attributes": Field(ATTRIBUTES, "key: value strings"),
        "statistics": Field(MapOf(INT), "storage statistics (bytes)"),
        "members": Field(ListOf(MEMBER), "direct members"),
    },
    "A group. Nest groups with `subgroups`. Other records name groups by full path.",
    extra=lambda: sections.active().fields("group"),
)
GENERATED_GROUPS = Record(
    "generated_groups",
    {
        "generate": Field(POSITIVE, "how many groups", required=True),
        "start": Field(INT, "the first `n` (default 1)"),
        **{k: v for k, v in GROUP.fields.items() if k not in ("members",)},
        "path": Field(STR, "a pattern with `{n}`, e.g. `team-{n:03d}` (default `group-{n}`)"),
        "name": Field(STR, "a pattern with `{n}` (default: the path)"),
    },
    "Many similar groups (`generate: 150`), for paging through large lists.",
)
GROUPS = ListOf(Variant([("generate", GENERATED_GROUPS)], GROUP))
GROUP.fields["subgroups"] = Field(GROUPS, "child groups (same keys)")
GENERATED_GROUPS.fields["subgroups"] = Field(GROUPS, "child groups of each generated group")

SHARE = Record(
    "project_share",
    {
        "group": Field(STR, "a group's full path", required=True),
        "role": Field(ROLE, "the group's maximum role (default developer)"),
        "expires_at": Field(DATE, ""),
    },
)
PROJECT_TOKEN = Record(
    "project_access_token",
    {
        "token": Field(STR, "the secret clients send", required=True),
        "name": Field(STR, ""),
        "role": Field(ROLE, "the bot user's role (default maintainer)"),
        "scopes": Field(SCOPE_LIST, "default `[api]`"),
        "expires_at": Field(DATE, ""),
    },
    "A project access token (its bot user becomes a member).",
)
PROJECT_FIELDS: dict[str, Field] = {
    "name": Field(STR, "default: the path"),
    "creator": Field(STR, "a username (default: the namespace's owner, for user namespaces)"),
    "created_at": Field(TIME, ""),
    "description": Field(STR, ""),
    "visibility": Field(Choice(VISIBILITIES), "default private; not above the group's"),
    "default_branch": Field(STR, ""),
    "archived": Field(BOOL, ""),
    "topics": Field(ListOf(STR), ""),
    "star_count": Field(NON_NEGATIVE, ""),
    "forks_count": Field(NON_NEGATIVE, ""),
    "open_issues_count": Field(NON_NEGATIVE, ""),
    "repository_storage": Field(STR, ""),
    "ci_config_path": Field(STR, "default `.gitlab-ci.yml`"),
    "request_access_enabled": Field(BOOL, ""),
    "lfs_enabled": Field(BOOL, ""),
    "shared_runners_enabled": Field(BOOL, ""),
    "public_jobs": Field(BOOL, ""),
    "custom_attributes": Field(ATTRIBUTES, "key: value strings"),
    "features": Field(MapOf(Choice(ACCESS_LEVEL_VALUES), keys=FEATURES), "feature access levels"),
    "members": Field(ListOf(MEMBER), "direct members"),
    "shared_with": Field(ListOf(SHARE), "groups the project is shared with"),
    "access_tokens": Field(ListOf(PROJECT_TOKEN), "project access tokens"),
}
PROJECT = Record(
    "project",
    {
        "path": Field(STR, "`<namespace full path>/<project path>`", required=True),
        **PROJECT_FIELDS,
    },
    "A project in a group or a user's namespace. Areas add keys here (`files`, `ci`...).",
    extra=lambda: sections.active().fields("project"),
)
GENERATED_PROJECTS = Record(
    "generated_projects",
    {
        "generate": Field(POSITIVE, "how many projects", required=True),
        "start": Field(INT, "the first `n` (default 1)"),
        "path": Field(STR, "a pattern with `{n}`, e.g. `oss/lib-{n:02d}`", required=True),
        **PROJECT_FIELDS,
        "name": Field(STR, "a pattern with `{n}`"),
    },
    "Many similar projects.",
    extra=lambda: sections.active().fields("project"),
)

# -- control state ---------------------------------------------------------------------------
METHOD = Choice(("*", *sorted(METHODS)))
FAULT = Record(
    "fault",
    {
        "path": Field(STR, "a path glob: `*` within a segment, `**` across", required=True),
        "method": Field(METHOD, "default `*`"),
        "status": Field(Range(400, 599), "answer with this status and the service's body for it"),
        "delay": Field(Range(0, 300, integer=False), "seconds to wait before answering"),
        "drop": Field(BOOL, "break the connection instead of answering"),
        "times": Field(POSITIVE, "fire this many times, then stop (default: always)"),
        "probability": Field(Range(0, 1, integer=False), "fire with this probability (default 1)"),
        "seed": Field(NON_NEGATIVE, "seed of the rule's random draws (default 0)"),
        "skip": Field(NON_NEGATIVE, "let this many matching requests through first"),
        "body": Field(ANY, "replace the body: JSON, or text"),
        "headers": Field(MapOf(STR), "extra or replaced headers"),
        "retry_after": Field(
            NON_NEGATIVE, "for status 429: the `Retry-After` seconds (default 60)"
        ),
    },
    "A fault injected into matching requests (not part of snapshots).",
    rules=(exclusive("status", "drop"), at_least_one("status", "delay", "drop")),
)
RATE_LIMIT = Record(
    "rate_limit",
    {
        "limit": Field(NON_NEGATIVE, "requests allowed per period per requester", required=True),
        "period": Field(POSITIVE, "window length in seconds (default 60)"),
        "name": Field(STR, "the `RateLimit-Name` header (default `throttle_authenticated_api`)"),
        "method": Field(METHOD, "default `*`"),
        "path": Field(STR, "a path glob (default `/api/v4/**`)"),
        "applies_to": Field(Choice(APPLIES_TO), "which requesters are counted (default all)"),
    },
    "A rate limit on the service's clock (not part of snapshots).",
)
CLOCK = Record(
    "clock",
    {
        "mode": Field(Choice(CLOCK_MODES), "`manual` (default), `frozen` or `real`"),
        "start": Field(TIME, "the time at load (default 2026-01-01T09:00:00Z)"),
    },
)

# -- replays ---------------------------------------------------------------------------------
AUTH_FIELDS: dict[str, Field] = {
    "as": Field(
        Nullable(STR), "a username: send one of that user's active API tokens; null: anonymous"
    ),
    "token": Field(STR, "send this secret as `PRIVATE-TOKEN`"),
    "bearer": Field(STR, "send this secret as `Authorization: Bearer`"),
    "sudo": Field(STR, "send `Sudo: <username>`"),
    "headers": Field(MapOf(STR), "headers sent with every request"),
}
STEP_DEFAULTS = Record(
    "step_defaults",
    AUTH_FIELDS,
    "Defaults for every request step (a step's own keys win).",
    rules=(exclusive("as", "token", "bearer"),),
)
REQUEST = Record(
    "request",
    {
        "method": Field(METHOD, "default GET"),
        "path": Field(
            REQUEST_PATH,
            "`/api/v4` is added unless the path starts with it or `/_fake`; "
            "a full URL (as in a `Link` header) is accepted",
            required=True,
        ),
        **AUTH_FIELDS,
        "query": Field(MapOf(ANY), "query parameters (lists repeat the key)"),
        "body": Field(ANY, "a JSON body"),
        "form": Field(MapOf(ANY), "a form-encoded body"),
    },
    "The request a step sends. Strings may use `${variable}`.",
    rules=(exclusive("as", "token", "bearer"), exclusive("body", "form")),
)
HEADER_MATCH = Record(
    "header_match",
    {
        "contains": Field(STR, "the header contains this text"),
        "matches": Field(STR, "the header matches this regular expression (search)"),
        "present": Field(BOOL, "the header is (true) or is not (false) there"),
    },
)
EXPECT = Record(
    "expect",
    {
        "status": Field(
            OneOf((HTTP_STATUS, ListOf(HTTP_STATUS))), "the status, or a list of allowed ones"
        ),
        "headers": Field(
            MapOf(Nullable(OneOf((HEADER_MATCH, STR)))),
            "exact values; null: absent; or a header_match",
        ),
        "json": Field(
            ANY,
            "a JSON subset: mappings need only the keys given; lists match "
            "item by item and need the same length",
        ),
        "body": Field(ANY, "the exact JSON body"),
        "text": Field(STR, "the exact body text"),
        "length": Field(NON_NEGATIVE, "the length of the JSON array answered"),
        "values": Field(
            MapOf(ANY),
            "expression: expected value, with the expressions of "
            "`save` (`json[0].username: root`); values match as in `json`",
        ),
        "dropped": Field(BOOL, "the connection was dropped by a fault (true) or not"),
    },
    "What the answer must be. Each failed expectation prints a diff.",
    rules=(exclusive("json", "body", "text"),),
)
FINISH_JOB = Record(
    "finish_job",
    {
        "job": Field(ID_REF, "the job id (or `${variable}`)"),
        "project": Field(STR, "with `name`: the project's full path"),
        "name": Field(STR, "with `project`: the job's name (latest pipeline)"),
        "pipeline": Field(POSITIVE, "with `project`: the pipeline iid"),
        "status": Field(Choice(FINISH_STATUSES), "default success"),
    },
    "Finish a CI job through the CI area's runner (`service.runner`).",
    rules=(all_or_none("project", "name"), exactly_one("job", "project", what="one of")),
)
ADVANCE_UNITS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}


def _moves_forward(
    given: dict[str, yaml.Node], node: yaml.MappingNode, where: str, out: Out
) -> None:
    """The units of ``advance_clock`` add up to more than 0 seconds."""
    if not node.value:
        problem(out, node, where, f"needs at least one of {', '.join(ADVANCE_UNITS)}")
        return
    amounts = {unit: value_of(given[unit]) for unit in ADVANCE_UNITS if unit in given}
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in amounts.values())
    if not amounts or not numbers or any(value < 0 for value in amounts.values()):
        return  # unknown keys, wrong types and negative units are reported by the fields
    if sum(value * ADVANCE_UNITS[unit] for unit, value in amounts.items()) <= 0:
        problem(out, node, where, "must move the clock forward (a total above 0 seconds)")


ADVANCE = Record(
    "advance_clock",
    {unit: Field(SECONDS, "") for unit in ADVANCE_UNITS},
    "Units are added up; the total must be above 0 seconds.",
    rules=(_moves_forward,),
)
JOURNAL_EXPECT = Record(
    "journal_expectation",
    {
        "count": Field(NON_NEGATIVE, "how many journal entries match", required=True),
        "method": Field(METHOD, ""),
        "path": Field(STR, "a path glob"),
        "user": Field(STR, "the acting username"),
        "status": Field(HTTP_STATUS, ""),
    },
    "Assert on the request journal.",
)
ACTIONS: dict[str, Field] = {
    "request": Field(REQUEST, "send a request"),
    "advance_clock": Field(OneOf((FORWARD, ADVANCE)), "seconds, or `{minutes: 5}`..."),
    "set_clock": Field(TIME, "set the manual clock to an ISO 8601 time"),
    "clock_mode": Field(Choice(CLOCK_MODES), "switch the clock's mode"),
    "finish_job": Field(FINISH_JOB, "finish a CI job"),
    "fault": Field(FAULT, "inject a fault"),
    "clear_faults": Field(BOOL, "remove every fault"),
    "rate_limit": Field(RATE_LIMIT, "add a rate limit"),
    "clear_rate_limits": Field(BOOL, "remove every rate limit"),
    "snapshot": Field(SNAPSHOT_NAME, "keep the state under this name"),
    "restore": Field(SNAPSHOT_NAME, "restore the state kept under this name"),
    "reset": Field(BOOL, "back to the loaded scenario (empties the journal)"),
    "journal": Field(JOURNAL_EXPECT, "assert on the request journal"),
    "clear_journal": Field(BOOL, "empty the journal"),
}
STEP = Record(
    "step",
    {
        "name": Field(STR, "shown in reports"),
        **ACTIONS,
        "expect": Field(EXPECT, "with `request`: what the answer must be"),
        "save": Field(
            MapOf(STR),
            "with `request`: variables from the answer: `json.id`, "
            "`json[0].username`, `headers.X-Total`, `link.next`, `status`",
        ),
        "repeat": Field(POSITIVE, "with `request`: send it this many times (each must pass)"),
    },
    "One replay step: exactly one action, plus `name`.",
    extra=lambda: sections.active().fields("action"),
)


def _one_action(given, node, where, out):  # type: ignore[no-untyped-def]
    names = [*ACTIONS, *sections.active().sections("action")]
    present = [name for name in names if name in given]
    if len(present) > 1:
        problem(out, node, where, f"has more than one action: {', '.join(present)}")
    elif not present:
        problem(out, node, where, f"needs an action: one of {', '.join(names)}")


STEP.rules = (_one_action, only_with("request", "expect", "save", "repeat"))

# -- the document ----------------------------------------------------------------------------
SCENARIO = Record(
    "scenario",
    {
        "name": Field(STR, "a title for reports"),
        "description": Field(STR, "what the scenario is for"),
        "extends": Field(
            STR,
            "load this scenario first: a built-in name (`default`) or a path relative to this file",
        ),
        "clock": Field(CLOCK, "the service's clock"),
        "users": Field(ListOf(Variant([("generate", GENERATED_USERS)], USER)), "users, in order"),
        "groups": Field(GROUPS, "top-level groups (or `parent/child` paths)"),
        "projects": Field(
            ListOf(Variant([("generate", GENERATED_PROJECTS)], PROJECT)), "projects, in order"
        ),
        "faults": Field(ListOf(FAULT), "faults active from the start"),
        "rate_limits": Field(ListOf(RATE_LIMIT), "rate limits active from the start"),
        "step_defaults": Field(STEP_DEFAULTS, "defaults for request steps"),
        "steps": Field(ListOf(STEP), "the replay: steps run in order by `fakeservice replay`"),
    },
    "The top level of a scenario file.",
    extra=lambda: sections.active().fields("top"),
)

sections.declare_builtin("top", set(SCENARIO.fields))
sections.declare_builtin("project", set(PROJECT.fields) | {"generate", "start"})
sections.declare_builtin("group", set(GROUP.fields))
sections.declare_builtin("action", set(STEP.fields))


def reference(found: sections.Sections) -> str:
    """The Markdown reference of the scenario format (``docs/scenarios.md``): the built-in
    keys and every key and action registered in ``found`` (see
    :mod:`fakeservice.scenarios.reference` for the default service's)."""
    from fakeservice.scenarios.schema import describe_markdown

    with sections.using(found):
        return describe_markdown(SCENARIO)
