"""Users endpoints (seed 001 §4.8): list with every filter, get, create, modify, delete,
block/unblock, identities, the current user and user statuses."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.avatars.models import AVATAR_FILE, attach
from fakeservice.core.errors import (
    Conflict,
    Forbidden,
    NotFound,
    Unauthorized,
    ValidationFailed,
    or_404,
)
from fakeservice.core.events import listeners
from fakeservice.core.store import Selection
from fakeservice.members.access import authorized_projects
from fakeservice.members.models import members, of_user
from fakeservice.tokens.models import tokens
from fakeservice.users.models import (
    USER_DELETED,
    Identity,
    User,
    create_user,
    find_by_id_or_username,
    find_by_username,
    live_user,
    modify_user,
    users,
    validate_user_fields,
)
from fakeservice.users.views import (
    custom_attributes,
    status_view,
    user_admin,
    user_basic,
    user_current,
    user_single,
)
from fakeservice.web.conditional import require_unmodified_since
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import (
    BOOL,
    DATETIME,
    HASH,
    INT,
    STR,
    AllOrNone,
    AtLeastOne,
    Param,
)
from fakeservice.web.routing import ADMIN, PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("users")

USER_ORDERS = ("id", "name", "username", "created_at", "updated_at")
STATUS_CLEAR_AFTER = {
    "30_minutes": dt.timedelta(minutes=30),
    "3_hours": dt.timedelta(hours=3),
    "8_hours": dt.timedelta(hours=8),
    "1_day": dt.timedelta(days=1),
    "3_days": dt.timedelta(days=3),
    "7_days": dt.timedelta(days=7),
    "30_days": dt.timedelta(days=30),
}

LIST_PARAMS = (
    Param("username", STR),
    Param("extern_uid", STR),
    Param("provider", STR),
    Param("search", STR),
    Param("active", BOOL, default=False),
    Param("blocked", BOOL, default=False),
    Param("external", BOOL, default=False),
    Param("exclude_internal", BOOL, default=False),
    Param("exclude_external", BOOL, default=False),
    Param("without_project_bots", BOOL, default=False),
    Param("created_before", DATETIME),
    Param("created_after", DATETIME),
    Param("without_projects", BOOL, default=False),
    Param("custom_attributes", HASH),
    Param("with_custom_attributes", BOOL, default=False),
    Param("order_by", STR, default="id", values=USER_ORDERS),
    Param("sort", STR, default="desc", values=("asc", "desc")),
    Param("two_factor", STR, values=("enabled", "disabled")),
    Param("admins", BOOL, default=False),
    Param("saml_provider_id", INT),
)

PROFILE_PARAMS = (
    Param("admin", BOOL),
    Param("bio", STR),
    Param("can_create_group", BOOL),
    Param("color_scheme_id", INT),
    Param("extern_uid", STR),
    Param("external", BOOL),
    Param("extra_shared_runners_minutes_limit", INT),
    Param("group_id_for_saml", INT),
    Param("linkedin", STR),
    Param("location", STR),
    Param("note", STR),
    Param("organization", STR),
    Param("private_profile", BOOL),
    Param("projects_limit", INT),
    Param("provider", STR),
    Param("shared_runners_minutes_limit", INT),
    Param("skype", STR),
    Param("theme_id", INT),
    Param("twitter", STR),
    Param("discord", STR),
    Param("view_diffs_file_by_file", BOOL),
    Param("website_url", STR),
    Param("job_title", STR),
    Param("pronouns", STR),
    Param("commit_email", STR),
    Param("avatar", AVATAR_FILE),
)
SIMPLE_FIELDS = (
    "bio", "can_create_group", "color_scheme_id", "external", "extra_shared_runners_minutes_limit",
    "linkedin", "location", "note", "organization", "projects_limit", "shared_runners_minutes_limit",
    "skype", "theme_id", "twitter", "discord", "view_diffs_file_by_file", "website_url", "job_title",
    "pronouns", "commit_email",
)  # fmt: skip


def find_user_or_404(ctx: Context, key: Any) -> User:
    user = find_by_id_or_username(ctx.store, key)
    if user is None or user.deleted:
        raise NotFound("User")
    return user


def _list_view(ctx: Context) -> Callable[[User], dict[str, Any]]:
    admin = ctx.is_admin
    with_attrs = admin and ctx.params.get("with_custom_attributes")

    def render(user: User) -> dict[str, Any]:
        out = user_admin(user, ctx.base_url) if admin else user_basic(user, ctx.base_url)
        if with_attrs:
            out["custom_attributes"] = custom_attributes(user)
        return out

    return render


def _users_selection(ctx: Context) -> Selection[User]:
    p = ctx.params
    table = users(ctx.store)
    admin = ctx.is_admin
    order_by = p["order_by"] if admin else "id"
    reverse = (p["sort"] if admin else "desc") == "desc"
    predicates: list[Callable[[User], bool]] = []
    selection: Selection[User] | None = None
    if p.get("username"):
        found = find_by_username(ctx.store, p["username"])
        selection = table.ordered([found] if found else [], lambda u: ())
    elif p.get("extern_uid") and p.get("provider"):
        selection = table.select("extern_uid", [(p["provider"], p["extern_uid"])], reverse=reverse)
    if order_by != "id":
        selection = None if selection is None else selection
        base = table.select(f"by_{order_by}", reverse=reverse)
        if selection is not None:
            chosen = {u.id for u in selection}
            predicates.append(lambda u: u.id in chosen)
        selection = base
    elif selection is None:
        if p["admins"] and admin:
            selection = table.select("admins", [True], reverse=reverse)
        elif p["blocked"]:
            selection = table.select("state", ["blocked"], reverse=reverse)
        elif p["active"]:
            selection = table.select("state", ["active"], reverse=reverse)
        elif p["external"]:
            selection = table.select("external", [True], reverse=reverse)
        else:
            selection = table.select(reverse=reverse)
    if p["admins"] and admin:
        predicates.append(lambda u: u.admin)
    if p["blocked"]:
        predicates.append(lambda u: u.state == "blocked")
    if p["active"]:
        predicates.append(lambda u: u.state == "active")
    if p["external"]:
        predicates.append(lambda u: u.external)
    if p["exclude_external"]:
        predicates.append(lambda u: not u.external)
    if p["exclude_internal"]:
        predicates.append(lambda u: not u.is_internal)
    if p["without_project_bots"]:
        predicates.append(lambda u: u.user_type != "project_bot")
    if p.get("search"):
        needle = p["search"].lower()
        predicates.append(
            lambda u: (
                needle in u.name.lower()
                or needle in u.username.lower()
                or needle == u.email.lower()
                or needle in (e.lower() for e in u.secondary_emails)
            )
        )
    if p.get("created_before"):
        before = p["created_before"]
        predicates.append(lambda u: u.created_at <= before)
    if p.get("created_after"):
        after = p["created_after"]
        predicates.append(lambda u: u.created_at >= after)
    if p["without_projects"]:
        store, now = ctx.store, ctx.now
        predicates.append(lambda u: not authorized_projects(store, u, now))
    if admin and p.get("two_factor"):
        wanted = p["two_factor"] == "enabled"
        predicates.append(lambda u: u.two_factor_enabled == wanted)
    if admin and p.get("saml_provider_id") is not None:
        saml = p["saml_provider_id"]
        predicates.append(lambda u: any(i.saml_provider_id == saml for i in u.identities))
    if admin and p.get("custom_attributes"):
        wanted_attrs = {str(k): str(v) for k, v in p["custom_attributes"].items()}
        predicates.append(
            lambda u: all(u.custom_attributes.get(k) == v for k, v in wanted_attrs.items())
        )
    if not predicates:
        return selection
    return selection.filter(lambda u: all(check(u) for check in predicates))


@api.get(
    "/users",
    params=LIST_PARAMS,
    constraints=(AllOrNone(("extern_uid", "provider")),),
    paginated=True,
    read_scopes=("read_user",),
)
def list_users(ctx: Context) -> Any:
    """List users (anonymous callers only with ``username``)."""
    if ctx.params.get("extern_uid") and not ctx.is_admin:
        raise Unauthorized() if ctx.user is None else Forbidden()
    if ctx.user is None and not ctx.params.get("username"):
        raise Forbidden("Not authorized to access /api/v4/users")
    return ctx.paginate(_users_selection(ctx), _list_view(ctx))


@api.get(
    "/users/:id",
    params=(Param("id", INT, required=True), Param("with_custom_attributes", BOOL, default=False)),
    read_scopes=("read_user",),
)
def get_user(ctx: Context) -> Any:
    """Get a single user."""
    user = or_404(live_user(ctx.store, ctx.params["id"]), "User")
    if ctx.is_admin:
        out = user_admin(user, ctx.base_url)
        if ctx.params["with_custom_attributes"]:
            out["custom_attributes"] = custom_attributes(user)
        return out
    return user_single(user, ctx.base_url)


@api.get("/user", auth=REQUIRED, read_scopes=("read_user",))
def current_user(ctx: Context) -> Any:
    """The signed-in user."""
    return user_current(ctx.user, ctx.base_url)


CREATE_PARAMS = (
    Param("email", STR, required=True),
    Param("name", STR, required=True),
    Param("username", STR, required=True),
    Param("password", STR),
    Param("reset_password", BOOL),
    Param("force_random_password", BOOL),
    Param("skip_confirmation", BOOL),
    *PROFILE_PARAMS,
)


def _profile_fields(params: dict[str, Any]) -> dict[str, Any]:
    fields = {k: params[k] for k in SIMPLE_FIELDS if k in params}
    if "admin" in params:
        fields["admin"] = bool(params["admin"])
    if "private_profile" in params:
        fields["private_profile"] = bool(params["private_profile"])
    return fields


def _identity(params: dict[str, Any]) -> Identity | None:
    if params.get("provider") and params.get("extern_uid"):
        return Identity(params["provider"], params["extern_uid"])
    return None


@api.post(
    "/users",
    params=CREATE_PARAMS,
    constraints=(AtLeastOne(("password", "reset_password", "force_random_password")),),
    auth=ADMIN,
)
def create(ctx: Context) -> Any:
    """Create a user (administrators)."""
    p = ctx.params
    password = p.get("password")
    if p.get("reset_password") or p.get("force_random_password"):
        password = None
    elif not password:
        raise ValidationFailed({"password": ["can't be blank"]})
    fields = {"username": p["username"], "email": p["email"], "name": p["name"]}
    errors = validate_user_fields(ctx.store, {**fields, "password": password})
    if errors.get("username") == ["has already been taken"]:
        raise Conflict("Username has already been taken")
    if errors.get("email") == ["has already been taken"]:
        raise Conflict("Email has already been taken")
    if errors:
        raise ValidationFailed(errors)
    user = create_user(
        ctx.store,
        ctx.now,
        password=password,
        skip_confirmation=bool(p.get("skip_confirmation", True)),
        **fields,
        **_profile_fields(p),
    )
    identity = _identity(p)
    if identity is not None:
        users(ctx.store).update(user, identities=[identity])
    attach(ctx.store, "user", user, p.get("avatar"))
    return user_admin(user, ctx.base_url)


@api.put(
    "/users/:id",
    params=(
        Param("id", INT, required=True),
        Param("email", STR),
        Param("name", STR),
        Param("username", STR),
        Param("password", STR),
        Param("public_email", STR),
        Param("skip_reconfirmation", BOOL),
        *PROFILE_PARAMS,
    ),
    auth=ADMIN,
)
def modify(ctx: Context) -> Any:
    """Modify a user (administrators). Any failure answers 404."""
    p = ctx.params
    user = or_404(live_user(ctx.store, p["id"]), "User")
    fields = {k: p[k] for k in ("email", "name", "username", "password") if k in p}
    fields.update(_profile_fields(p))
    if "public_email" in p:
        if p["public_email"] and p["public_email"].lower() not in (
            user.email.lower(),
            *(e.lower() for e in user.secondary_emails),
        ):
            raise NotFound(message={"public_email": ["is not an email you own"]})
        fields["public_email"] = p["public_email"] or None
    errors = validate_user_fields(ctx.store, fields, exclude=user.id)
    if errors:
        raise NotFound(message=errors)
    identity = _identity(p)
    if identity is not None:
        others = [i for i in user.identities if i.provider != identity.provider]
        fields["identities"] = [*others, identity]
    modify_user(ctx.store, user, ctx.now, **fields)
    attach(ctx.store, "user", user, p.get("avatar"))
    return user_admin(user, ctx.base_url)


@api.delete(
    "/users/:id/identities/:provider",
    params=(Param("id", INT, required=True), Param("provider", STR, required=True)),
    auth=ADMIN,
)
def delete_identity(ctx: Context) -> Any:
    """Delete a user's identity for a provider (administrators)."""
    user = or_404(live_user(ctx.store, ctx.params["id"]), "User")
    kept = [i for i in user.identities if i.provider != ctx.params["provider"]]
    if len(kept) == len(user.identities):
        raise NotFound("Identity")
    users(ctx.store).update(user, identities=kept)
    return None


def sole_owned_groups(ctx: Context, user: User) -> list[int]:
    from fakeservice.members.models import NAMESPACE, OWNER, of_source

    owned = []
    for member in of_user(ctx.store, user.id):
        if member.source_kind == NAMESPACE and member.access_level == OWNER:
            owners = [
                m
                for m in of_source(ctx.store, NAMESPACE, member.source_id)
                if m.access_level == OWNER
            ]
            if len(owners) == 1:
                owned.append(member.source_id)
    return owned


@api.delete(
    "/users/:id",
    params=(Param("id", INT, required=True), Param("hard_delete", BOOL, default=False)),
    auth=ADMIN,
)
def delete_user(ctx: Context) -> Any:
    """Delete a user (administrators): 204, 404 when absent, 409 when it cannot be soft deleted."""
    from fakeservice.groups.models import delete_group, namespaces
    from fakeservice.projects.models import delete_project, projects

    user = or_404(live_user(ctx.store, ctx.params["id"]), "User")
    require_unmodified_since(ctx.request, user.updated_at)
    groups_owned = sole_owned_groups(ctx, user)
    if groups_owned and not ctx.params["hard_delete"]:
        raise Conflict("User cannot be removed while is the sole-owner of a group")
    store = ctx.store
    for member in of_user(store, user.id):
        members(store).delete(member)
    for token in [tokens(store).rows[e[-1]] for e in tokens(store).sorted["user"].part(user.id)]:
        tokens(store).delete(token)
    project_table = projects(store)
    for entry in list(project_table.sorted["ns_by_id"].part(user.namespace_id)):
        delete_project(store, project_table.rows[entry[-1]])
    if ctx.params["hard_delete"]:
        for group_id in groups_owned:
            group = namespaces(store).get(group_id)
            if group is not None:
                delete_group(store, group)
    namespace = namespaces(store).get(user.namespace_id)
    if namespace is not None:
        namespaces(store).delete(namespace)
    for hook in listeners(store, USER_DELETED):
        hook(store, user)
    users(store).delete(user)
    return None


def _set_state(ctx: Context, event: str) -> Any:
    user = or_404(live_user(ctx.store, ctx.params["id"]), "User")
    if event == "block":
        if user.is_internal:
            raise Forbidden("An internal user cannot be blocked")
        if ctx.user is not None and user.id == ctx.user.id:
            raise Forbidden("The API initiating user cannot be blocked by the API")
        if user.state == "blocked":
            return json_response(None, 201)
        users(ctx.store).update(user, state="blocked")
        return True
    if event == "unblock":
        if user.state == "active":
            return False
        if user.state != "blocked":
            raise Forbidden(
                f"{user.state.replace('_', ' ').capitalize()} users cannot be unblocked by the API"
            )
        users(ctx.store).update(user, state="active")
        return True
    if event == "deactivate":
        if user.state == "blocked":
            raise Forbidden("A blocked user cannot be deactivated by the API")
        users(ctx.store).update(user, state="deactivated")
        return True
    if user.state == "blocked":
        raise Forbidden("A blocked user must be unblocked to be activated")
    users(ctx.store).update(user, state="active")
    return True


def _state_route(event: str) -> None:
    @api.post(
        f"/users/:id/{event}",
        params=(Param("id", INT, required=True),),
        auth=ADMIN,
        status=201,
        summary=f"{event.capitalize()} a user (administrators).",
    )
    def handler(ctx: Context) -> Any:
        return _set_state(ctx, event)


for _event in ("block", "unblock", "deactivate", "activate"):
    _state_route(_event)


@api.get("/user/status", auth=REQUIRED, read_scopes=("read_user",))
def own_status(ctx: Context) -> Any:
    """The signed-in user's status."""
    return status_view(ctx.user, ctx.now)


@api.put(
    "/user/status",
    params=(
        Param("emoji", STR),
        Param("message", STR, check=lambda v: len(v) <= 100),
        Param("availability", STR, values=("not_set", "busy")),
        Param("clear_status_after", STR, values=tuple(STATUS_CLEAR_AFTER)),
    ),
    auth=REQUIRED,
)
def set_status(ctx: Context) -> Any:
    """Set the signed-in user's status (omitted fields are cleared, as in the real service)."""
    from fakeservice.users.models import UserStatus

    p = ctx.params
    clear_after = p.get("clear_status_after")
    user = ctx.user
    user.status = UserStatus(
        emoji=p.get("emoji") or None,
        message=p.get("message") or None,
        availability=p.get("availability") or "not_set",
        clear_status_at=ctx.now + STATUS_CLEAR_AFTER[clear_after] if clear_after else None,
    )
    if user.status.emoji is None and user.status.message:
        user.status.emoji = "speech_balloon"
    return status_view(user, ctx.now)


@api.get(
    "/users/:id_or_username/status",
    params=(Param("id_or_username", STR, required=True),),
    auth=PUBLIC,
)
def user_status(ctx: Context) -> Any:
    """Any user's status; no authentication needed."""
    user = find_user_or_404(ctx, ctx.params["id_or_username"])
    return status_view(user, ctx.now)
