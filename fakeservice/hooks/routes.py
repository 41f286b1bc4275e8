"""Project and group hook endpoints: list, get, add, edit, delete, test, custom headers,
URL variables and the hook's recent events.

Project hooks need the Maintainer role; group hooks the Owner role and a paid plan.
Unknown hooks answer ``404 Not found``; a bad URL the model's 400
(``{"message": {"url": ["is blocked: ..."]}}``). A test (``test/:trigger``) is sent
within its request, as the service does, since its answer depends on the receiver's:
201 ``{"message": "201 Created"}``, or 422 with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import ApiError, NotFound
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.hooks import deliveries as dv
from fakeservice.hooks import models
from fakeservice.hooks.models import GROUP, PROJECT, Hook
from fakeservice.hooks.outbox import outbox_of
from fakeservice.hooks.router import api
from fakeservice.hooks.sample import TEST_TRIGGERS, sample_payload
from fakeservice.hooks.views import event_view, hook_view
from fakeservice.instance.models import require_paid_plan
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.projects.models import Project, projects
from fakeservice.repository.models import find_repository
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL, HASH, INT, STR, Array, Param
from fakeservice.web.routing import REQUIRED

ID = Param("id", STR, required=True)
HOOK_ID = Param("hook_id", INT, required=True)
PAIRS = (Param("key", STR, required=True), Param("value", STR, required=True))


@attrs.frozen
class Owner:
    """The project or group of a request (access already checked)."""

    kind: str
    id: int
    project: Project | None


def _project(ctx: Context) -> Owner:
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    return Owner(PROJECT, project.id, project)


def _group(ctx: Context) -> Owner:
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, OWNER)
    require_paid_plan(ctx.store)
    return Owner(GROUP, group.id, None)


def _find(ctx: Context, owner: Owner) -> Hook:
    hook = models.hooks(ctx.store).get(ctx.params["hook_id"])
    if hook is None or (hook.kind, hook.owner_id) != (owner.kind, owner.id):
        raise NotFound()
    return hook


def hook_params(kind: str, *, editing: bool) -> tuple[Param, ...]:
    """The settings an add or edit of a ``kind`` hook accepts."""
    flags = models.FLAGS[kind]
    out = [
        Param("url", STR, required=not editing),
        *(Param(name, BOOL) for name in flags),
        Param("enable_ssl_verification", BOOL),
        Param("token", STR),
    ]
    if kind != models.SYSTEM:
        out += [
            Param("name", STR),
            Param("description", STR),
            Param("push_events_branch_filter", STR),
            Param("branch_filter_strategy", STR, values=models.STRATEGIES),
            Param("custom_webhook_template", STR),
            Param("custom_headers", Array(HASH), items=PAIRS),
        ]
    out.append(Param("url_variables", Array(HASH), items=PAIRS))
    return tuple(out)


def hook_fields(ctx: Context, declared: tuple[Param, ...]) -> dict[str, Any]:
    fields = {p.name: ctx.params[p.name] for p in declared if p.name in ctx.params}
    for name in ("custom_headers", "url_variables"):
        if fields.get(name) is not None:
            fields[name] = {item["key"]: item["value"] for item in fields[name]}
        elif name in fields:
            fields[name] = {}
    return fields


def _first_non_empty_project(ctx: Context, group_id: int) -> Project | None:
    """What a group hook's test sends about: the group's first project (by id) whose
    repository has commits, as the service picks it."""
    for project in projects(ctx.store).select("ns_by_id", [group_id]):
        repo = find_repository(ctx.store, project)
        if repo is not None and not repo.is_empty:
            return project
    return None


def _test(ctx: Context, owner: Owner, hook: Hook) -> Any:
    project = owner.project
    if project is None and owner.kind == GROUP:
        project = _first_non_empty_project(ctx, owner.id)
        if project is None:
            message = "Hook execution failed. Ensure the group has a project with commits."
            raise ApiError({"message": message}, status=422)
    if project is None:
        raise ApiError({"message": "Testing not available for this hook"}, status=422)
    box = outbox_of(ctx.store)
    trigger = ctx.params["trigger"]
    url = box.service.base_url if box is not None else ctx.base_url
    payload = sample_payload(ctx.store, project, trigger, ctx.user.id, url, ctx.now)
    delivery = dv.queue(
        ctx.store, hook, TEST_TRIGGERS[trigger][0], payload, instance_url=url, now=ctx.now
    )
    if box is not None:
        box.send(delivery.id)
    if delivery.state != "delivered":
        reason = delivery.error or f"[{delivery.response_status}] {delivery.response_body}"
        raise ApiError({"message": reason}, status=422)
    return {"message": "201 Created"}


def _set_entry(ctx: Context, owner: Owner, attribute: str) -> Response:
    hook = _find(ctx, owner)
    values = dict(getattr(hook, attribute))
    values[ctx.params["key"]] = ctx.params["value"]
    models.edit_hook(ctx.store, hook, {attribute: values})
    return Response(204, [], b"")


def _drop_entry(ctx: Context, owner: Owner, attribute: str, label: str) -> Response:
    hook = _find(ctx, owner)
    values = dict(getattr(hook, attribute))
    if values.pop(ctx.params["key"], None) is None:
        raise NotFound(label)
    models.edit_hook(ctx.store, hook, {attribute: values})
    return Response(204, [], b"")


def _declare(prefix: str, find: Callable[[Context], Owner], kind: str) -> None:
    base = f"/{prefix}/:id/hooks"
    one = f"{base}/:hook_id"
    label = "project" if kind == PROJECT else "group"
    adding, editing = hook_params(kind, editing=False), hook_params(kind, editing=True)

    @api.get(base, params=(ID,), auth=REQUIRED, paginated=True, summary=f"List {label} hooks")
    def list_hooks(ctx: Context) -> Any:
        owner = find(ctx)
        selection = models.of_owner(ctx.store, owner.kind, owner.id)
        return ctx.paginate(selection, lambda h: hook_view(h, ctx.now))

    @api.get(one, params=(ID, HOOK_ID), auth=REQUIRED, summary=f"Get a {label} hook")
    def get_hook(ctx: Context) -> Any:
        return hook_view(_find(ctx, find(ctx)), ctx.now)

    @api.post(base, params=(ID, *adding), auth=REQUIRED, summary=f"Add a {label} hook")
    def add_hook(ctx: Context) -> Any:
        owner = find(ctx)
        fields = hook_fields(ctx, adding)
        return hook_view(models.add_hook(ctx.store, kind, owner.id, ctx.now, fields), ctx.now)

    @api.put(one, params=(ID, HOOK_ID, *editing), auth=REQUIRED, summary=f"Edit a {label} hook")
    def edit_hook(ctx: Context) -> Any:
        hook = _find(ctx, find(ctx))
        fields = hook_fields(ctx, editing)
        return hook_view(models.edit_hook(ctx.store, hook, fields), ctx.now)

    @api.delete(one, params=(ID, HOOK_ID), auth=REQUIRED, summary=f"Delete a {label} hook")
    def delete_hook(ctx: Context) -> Any:
        hook = _find(ctx, find(ctx))
        dv.forget_hook(ctx.store, hook)
        models.hooks(ctx.store).delete(hook)

    @api.post(
        f"{one}/test/:trigger",
        params=(ID, HOOK_ID, Param("trigger", STR, required=True, values=tuple(TEST_TRIGGERS))),
        auth=REQUIRED,
        status=201,
        summary=f"Send a test delivery to a {label} hook",
    )
    def test_hook(ctx: Context) -> Any:
        owner = find(ctx)
        return _test(ctx, owner, _find(ctx, owner))

    @api.get(
        f"{one}/events",
        params=(ID, HOOK_ID, Param("status", Array(STR, scalar=True))),
        auth=REQUIRED,
        paginated=True,
        summary=f"List a {label} hook's recent events",
    )
    def hook_events(ctx: Context) -> Any:
        hook = _find(ctx, find(ctx))
        selection = dv.deliveries(ctx.store).select("hook", [hook.id], reverse=True)
        wanted = _status_filter(ctx.params.get("status"))
        selection = selection.filter(
            lambda d: d.state in ("delivered", "failed") and wanted(d.response_status)
        )
        return ctx.paginate(selection, event_view)

    for attribute, noun, label_name in (
        ("custom_headers", "custom_headers", "Custom header"),
        ("url_variables", "url_variables", "URL variable"),
    ):
        _declare_entries(one, find, attribute, noun, label_name, label)


def _declare_entries(
    one: str, find: Callable[[Context], Owner], attribute: str, noun: str, name: str, label: str
) -> None:
    path = f"{one}/{noun}/:key"

    @api.put(
        path,
        params=(ID, HOOK_ID, Param("key", STR, required=True), Param("value", STR, required=True)),
        auth=REQUIRED,
        status=204,
        summary=f"Set a {label} hook's {name.lower()}",
    )
    def set_entry(ctx: Context) -> Any:
        return _set_entry(ctx, find(ctx), attribute)

    @api.delete(
        path,
        params=(ID, HOOK_ID, Param("key", STR, required=True)),
        auth=REQUIRED,
        status=204,
        summary=f"Delete a {label} hook's {name.lower()}",
    )
    def delete_entry(ctx: Context) -> Any:
        return _drop_entry(ctx, find(ctx), attribute, name)


_STATUS_CLASSES = {
    "successful": lambda code: 200 <= code < 300,
    "client_failure": lambda code: 400 <= code < 500,
    "server_failure": lambda code: code >= 500,
}


def _status_filter(values: list[str] | None) -> Callable[[str | None], bool]:
    """``status`` of the events list: codes (``200``) or classes (``successful``,
    ``client_failure``, ``server_failure``)."""
    if not values:
        return lambda _status: True

    def keep(status: str | None) -> bool:
        code = int(status) if status and status.isdigit() else 0
        for value in values:
            check = _STATUS_CLASSES.get(value)
            if (check is not None and code and check(code)) or value == status:
                return True
        return False

    return keep


_declare("projects", _project, PROJECT)
_declare("groups", _group, GROUP)
