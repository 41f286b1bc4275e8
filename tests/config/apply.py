"""A small declarative applier, as configuration-as-code tools work: for each object of a
description, look it up, create it when missing or update only what differs, then read it
back and check it equals the description. Used by the idempotence test."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gitlab

Config = Mapping[str, Any]


def _differs(obj: Any, wanted: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in wanted.items() if getattr(obj, k, None) != v}


def _update(obj: Any, wanted: Mapping[str, Any]) -> None:
    changed = _differs(obj, wanted)
    if changed:
        for key, value in changed.items():
            setattr(obj, key, value)
        obj.save()


def _user_id(gl: gitlab.Gitlab, username: str) -> int:
    return int(gl.users.list(username=username)[0].id)


def ensure_members(gl: gitlab.Gitlab, owner: Any, wanted: Mapping[str, int]) -> None:
    present = {m.username: m for m in owner.members.list(get_all=True)}
    for username, level in wanted.items():
        member = present.get(username)
        if member is None:
            owner.members.create({"user_id": _user_id(gl, username), "access_level": level})
        elif member.access_level != level:
            member.access_level = level
            member.save()


def ensure_badges(owner: Any, wanted: list[Mapping[str, str]], kind: str) -> None:
    present = {b.name: b for b in owner.badges.list(get_all=True) if b.kind == kind}
    for badge in wanted:
        found = present.get(badge["name"])
        if found is None:
            owner.badges.create(dict(badge))
        else:
            _update(found, badge)


def ensure_protected_branches(project: Any, wanted: Mapping[str, Mapping[str, int]]) -> None:
    present = {pb.name: pb for pb in project.protectedbranches.list(get_all=True)}
    for name, levels in wanted.items():
        found = present.get(name)
        if found is not None and (
            found.push_access_levels[0]["access_level"] == levels["push_access_level"]
            and found.merge_access_levels[0]["access_level"] == levels["merge_access_level"]
        ):
            continue
        if found is not None:
            project.protectedbranches.delete(name)
        project.protectedbranches.create({"name": name, **levels})


def ensure_protected_tags(project: Any, wanted: Mapping[str, int]) -> None:
    """Protected tags by name pattern with their create access level (no update endpoint:
    a changed level is a delete and a create)."""
    present = {pt.name: pt for pt in project.protectedtags.list(get_all=True)}
    for name, level in wanted.items():
        found = present.get(name)
        if found is not None and found.create_access_levels[0]["access_level"] == level:
            continue
        if found is not None:
            project.protectedtags.delete(name)
        project.protectedtags.create({"name": name, "create_access_level": level})


def ensure_named(manager: Any, key: str, wanted: Mapping[str, Mapping[str, str]]) -> None:
    """Labels (``key`` name), milestones (``key`` title) or CI/CD variables (``key``
    key): create or update each."""
    present = {getattr(obj, key): obj for obj in manager.list(get_all=True)}
    for name, fields in wanted.items():
        found = present.get(name)
        if found is None:
            manager.create({key: name, **fields})
        else:
            _update(found, fields)


def board_lists(board: Any) -> list[str]:
    return [item.label["name"] for item in board.lists.list(get_all=True)]


def ensure_boards(project: Any, wanted: Mapping[str, list[str]]) -> None:
    present = {board.name: board for board in project.boards.list(get_all=True)}
    label_ids = {label.name: label.id for label in project.labels.list(get_all=True)}
    for name, names in wanted.items():
        board = present.get(name) or project.boards.create({"name": name})
        have = board_lists(board)
        for label in names:
            if label not in have:
                board.lists.create({"label_id": label_ids[label]})
        for position, label in enumerate(names):
            item = next(i for i in board.lists.list(get_all=True) if i.label["name"] == label)
            if item.position != position:
                item.position = position
                item.save()


HOOK_SECRETS = ("token",)  # write-only: sent on create, never read back


def ensure_hooks(manager: Any, wanted: list[Mapping[str, Any]]) -> None:
    """Project or group hooks by URL: create, or update the readable settings that differ."""
    present = {hook.url: hook for hook in manager.list(get_all=True)}
    for hook in wanted:
        found = present.get(hook["url"])
        if found is None:
            manager.create(dict(hook))
        else:
            _update(found, {k: v for k, v in hook.items() if k not in HOOK_SECRETS})


def _hook_problems(where: str, manager: Any, wanted: list[Mapping[str, Any]]) -> list[str]:
    present = {hook.url: hook for hook in manager.list(get_all=True)}
    return [
        f"{where} hook {hook['url']}"
        for hook in wanted
        if hook["url"] not in present
        or _differs(present[hook["url"]], {k: v for k, v in hook.items() if k not in HOOK_SECRETS})
    ]


def _schedule_variables(project: Any, schedule_id: int) -> dict[str, dict[str, Any]]:
    full = project.pipelineschedules.get(schedule_id)
    return {v["key"]: v for v in full.attributes["variables"]}


def ensure_schedules(project: Any, wanted: Mapping[str, Mapping[str, Any]]) -> None:
    """Pipeline schedules by description, with their variables (create or update each)."""
    present = {s.description: s for s in project.pipelineschedules.list(get_all=True)}
    for description, spec in wanted.items():
        fields = {k: v for k, v in spec.items() if k != "variables"}
        schedule = present.get(description)
        if schedule is None:
            schedule = project.pipelineschedules.create({"description": description, **fields})
        else:
            _update(schedule, fields)
        have = _schedule_variables(project, schedule.id)
        for key, variable in spec.get("variables", {}).items():
            current = have.get(key)
            if current is None:
                schedule.variables.create({"key": key, **variable})
            elif any(current.get(k) != v for k, v in variable.items()):
                schedule.variables.update(key, dict(variable))


def _schedule_problems(where: str, project: Any, wanted: Mapping[str, Any]) -> list[str]:
    present = {s.description: s for s in project.pipelineschedules.list(get_all=True)}
    problems = []
    for description, spec in wanted.items():
        found = present.get(description)
        fields = {k: v for k, v in spec.items() if k != "variables"}
        if found is None or _differs(found, fields):
            problems.append(f"{where} schedule {description}")
            continue
        have = _schedule_variables(project, found.id)
        problems += [
            f"{where} schedule {description} variable {key}"
            for key, variable in spec.get("variables", {}).items()
            if key not in have or any(have[key].get(k) != v for k, v in variable.items())
        ]
    return problems


def _get_or_create(manager: Any, path: str, payload: Callable[[str, str], dict[str, Any]]) -> Any:
    """The object at ``path``, created from ``payload(parent_path, short_path)`` if missing."""
    try:
        return manager.get(path)
    except gitlab.GitlabGetError:
        parent, _, short = path.rpartition("/")
        return manager.create(payload(parent, short))


def ensure_group(gl: gitlab.Gitlab, spec: Config) -> Any:
    def payload(parent: str, short: str) -> dict[str, Any]:
        out = {"name": spec["name"], "path": short, **spec["settings"]}
        if parent:
            out["parent_id"] = gl.groups.get(parent).id
        return out

    group = _get_or_create(gl.groups, spec["path"], payload)
    _update(group, spec["settings"])
    ensure_members(gl, group, spec.get("members", {}))
    ensure_badges(group, spec.get("badges", []), "group")
    ensure_named(group.variables, "key", spec.get("variables", {}))
    ensure_hooks(group.hooks, spec.get("hooks", []))
    return group


def ensure_project(gl: gitlab.Gitlab, spec: Config) -> Any:
    def payload(namespace: str, short: str) -> dict[str, Any]:
        return {
            "name": spec["name"],
            "path": short,
            "namespace_id": gl.namespaces.get(namespace).id,
            "initialize_with_readme": True,
            **spec["settings"],
        }

    project = _get_or_create(gl.projects, spec["path"], payload)
    _update(project, spec["settings"])
    ensure_members(gl, project, spec.get("members", {}))
    ensure_protected_branches(project, spec.get("protected_branches", {}))
    ensure_protected_tags(project, spec.get("protected_tags", {}))
    ensure_named(project.variables, "key", spec.get("variables", {}))
    ensure_badges(project, spec.get("badges", []), "project")
    ensure_named(project.labels, "name", spec.get("labels", {}))
    ensure_named(project.milestones, "title", spec.get("milestones", {}))
    ensure_boards(project, spec.get("boards", {}))
    ensure_hooks(project.hooks, spec.get("hooks", []))
    ensure_schedules(project, spec.get("schedules", {}))
    return project


def _named_problems(
    where: str, kind: str, manager: Any, key: str, wanted: Mapping[str, Mapping[str, Any]]
) -> list[str]:
    present = {getattr(obj, key): obj for obj in manager.list(get_all=True)}
    return [
        f"{where} {kind} {name}"
        for name, fields in wanted.items()
        if name not in present or _differs(present[name], fields)
    ]


def read_back(gl: gitlab.Gitlab, config: Config) -> list[str]:
    """What differs between the instance and ``config`` (empty when they agree)."""
    problems: list[str] = []
    for spec in config["groups"]:
        group = gl.groups.get(spec["path"])
        problems += [f"{spec['path']}.{k}" for k in _differs(group, spec["settings"])]
        levels = {m.username: m.access_level for m in group.members.list(get_all=True)}
        problems += [
            f"{spec['path']} member {u}"
            for u, lv in spec.get("members", {}).items()
            if levels.get(u) != lv
        ]
        problems += _named_problems(
            spec["path"], "variables", group.variables, "key", spec.get("variables", {})
        )
        problems += _hook_problems(spec["path"], group.hooks, spec.get("hooks", []))
    for spec in config["projects"]:
        project = gl.projects.get(spec["path"])
        problems += [f"{spec['path']}.{k}" for k in _differs(project, spec["settings"])]
        names = {b.name for b in project.badges.list(get_all=True)}
        problems += [
            f"{spec['path']} badge {b['name']}"
            for b in spec.get("badges", [])
            if b["name"] not in names
        ]
        for manager, key, kind in (
            (project.labels, "name", "labels"),
            (project.milestones, "title", "milestones"),
            (project.variables, "key", "variables"),
        ):
            problems += _named_problems(spec["path"], kind, manager, key, spec.get(kind, {}))
        tags = {
            pt.name: pt.create_access_levels[0]["access_level"]
            for pt in project.protectedtags.list(get_all=True)
        }
        problems += [
            f"{spec['path']} protected tag {name}"
            for name, level in spec.get("protected_tags", {}).items()
            if tags.get(name) != level
        ]
        boards = {board.name: board_lists(board) for board in project.boards.list(get_all=True)}
        problems += [
            f"{spec['path']} board {name}"
            for name, lists in spec.get("boards", {}).items()
            if boards.get(name) != lists
        ]
        problems += _hook_problems(spec["path"], project.hooks, spec.get("hooks", []))
        problems += _schedule_problems(spec["path"], project, spec.get("schedules", {}))
    return problems


def apply(gl: gitlab.Gitlab, config: Config) -> None:
    for spec in config["groups"]:
        ensure_group(gl, spec)
    for spec in config["projects"]:
        ensure_project(gl, spec)
