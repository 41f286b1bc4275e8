"""Structural validation with the service's wording: every error of the expanded
configuration, in document order, lower-cased as the service does; plus warnings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .durations import _is_duration, parse_duration, parse_expire_in
from .expressions import _compile_pattern, _valid_expression
from .values import _blank, _flatten, _is_strings, _nested_hashes, _nested_strings, _scalar_text
from .vocabulary import (
    ARTIFACTS_KEYS,
    ARTIFACTS_WHEN,
    BRIDGE_KEYS,
    BRIDGE_WHEN,
    DEFAULT_KEYS,
    ENVIRONMENT_KEYS,
    INHERIT_KEYS,
    JOB_KEYS,
    JOB_WHEN,
    MAX_JOB_NAME_LENGTH,
    MAX_NESTING_LEVELS,
    MAX_PARALLEL,
    MAX_WARNINGS,
    MSG_NO_VISIBLE_JOB,
    POLICY_KEYS,
    RETRY_KEYS,
    ROOT_KEYS,
    RULE_KEYS,
    RULE_WHEN,
    TRIGGER_KEYS,
    WARNING_DOCS,
    WORKFLOW_KEYS,
    WORKFLOW_RULE_KEYS,
    WORKFLOW_WHEN,
)


def _humanize(name: str) -> str:
    """ActiveSupport's ``humanize`` (what the service applies to attribute names in messages)."""
    text = name
    if text.endswith("_id") and len(text) > 3:
        text = text[:-3]
    text = text.lstrip("_").replace("_", " ")
    return text[:1].upper() + text[1:].lower()


_UNMATCHED = re.compile(r"jobs ([a-z\s]+) config should implement")


def _entry_message(message: str) -> str:
    """The service's entry-validator post-processing: lower-case, then re-underscore job names."""
    lowered = message.lower()
    return _UNMATCHED.sub(
        lambda m: f"jobs {m.group(1).replace(' ', '_')} config should implement", lowered
    )


def _job_kind(name: str, value: Any) -> str | None:
    """``hidden``, ``build``, ``bridge`` or None (a job without script/run/trigger)."""
    if name.startswith("."):
        return "hidden"
    if isinstance(value, dict):
        if "script" in value or "run" in value:
            return "build"
        if "trigger" in value:
            return "bridge"
    return None


class _Checks:
    """Collects one entry's messages (``<location> <message>``)."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.messages: list[str] = []

    def add(self, message: str, at: str | None = None) -> None:
        where = f"{self.location}:{at}" if at else self.location
        self.messages.append(f"{where} {message}")

    def unknown_keys(
        self, value: Mapping[str, Any], allowed: Iterable[str], at: str | None = None
    ) -> None:
        known = set(allowed)
        unknown = [k for k in value if k not in known]
        if unknown:
            self.add(f"config contains unknown keys: {', '.join(unknown)}", at)


def _check_commands(checks: _Checks, value: Any, at: str | None) -> None:
    if not (isinstance(value, str) or _nested_strings(value)):
        checks.add(
            f"config should be a string or a nested array of strings up to {MAX_NESTING_LEVELS} levels deep",
            at,
        )


def _valid_variables(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    for item in value.values():
        if isinstance(item, dict):
            if "value" in item and isinstance(item["value"], dict | list):
                return False
        elif isinstance(item, list):
            return False
    return True


def _check_variables(checks: _Checks, value: Any, at: str | None) -> None:
    if value is not None and not _valid_variables(value):
        checks.add("config should be a hash of key value pairs", at)


def _check_image(checks: _Checks, value: Any, at: str | None) -> None:
    if value is not None and not isinstance(value, str | dict):
        checks.add("config should be a hash or a string", at)


def _check_services(checks: _Checks, value: Any, at: str | None) -> None:
    if value is not None and not isinstance(value, list):
        checks.add("config should be a array", at)


def _check_tags(checks: _Checks, value: Any, at: str | None) -> None:
    if value is not None and not _is_strings(value):
        checks.add("config should be an array of strings", at)


def _check_artifacts(checks: _Checks, value: Any, at: str) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        checks.add("config should be a hash", at)
        return
    checks.unknown_keys(value, ARTIFACTS_KEYS, at)
    if "paths" in value and not _is_strings(value["paths"]):
        checks.add("paths should be an array of strings", at)
    if "exclude" in value and not _is_strings(value["exclude"]):
        checks.add("exclude should be an array of strings", at)
    if "when" in value and value["when"] not in ARTIFACTS_WHEN:
        checks.add("when should be on_success, on_failure or always", at)
    if "expire_in" in value:
        try:
            parse_expire_in(value["expire_in"])
        except ValueError:
            checks.add("expire in should be a duration", at)
    if "untracked" in value and not isinstance(value["untracked"], bool):
        checks.add("untracked should be a boolean value", at)
    reports = value.get("reports")
    if reports is not None:
        if not isinstance(reports, dict):
            checks.add("config should be a hash", f"{at}:reports")
        else:
            for kind, paths in reports.items():
                if kind in ("junit", "dotenv", "cobertura", "terraform", "accessibility") and not (
                    isinstance(paths, str) or _is_strings(paths)
                ):
                    checks.add(f"{kind} should be an array of strings or a string", f"{at}:reports")


def _check_policy(checks: _Checks, value: Any, at: str) -> None:
    if value is None:
        return
    if isinstance(value, list):
        if not all(isinstance(v, str) for v in value) or any(
            v.startswith("/") and _compile_pattern(v.split("@", 1)[0]) is None
            for v in value
            if isinstance(v, str) and re.fullmatch(r"/.*/[ismU]*(@.*)?", v)
        ):
            checks.add(
                "config should be an array of strings or regular expressions using re2 syntax", at
            )
        return
    if isinstance(value, dict):
        checks.unknown_keys(value, POLICY_KEYS, at)
        if "refs" in value and not _is_strings(value["refs"]):
            checks.add(
                "refs should be an array of strings or regular expressions using re2 syntax", at
            )
        variables = value.get("variables")
        if variables is not None and not (
            _is_strings(variables) and all(_valid_expression(v) for v in variables)
        ):
            checks.add("variables should be an array of valid expressions", at)
        return
    checks.add("has to be either an array of conditions or a hash", at)


def _check_rules(
    checks: _Checks, value: Any, at: str, allowed_keys: Sequence[str], allowed_when: Sequence[str]
) -> None:
    if not isinstance(value, list):
        return
    where = f"{at}:rule"
    for rule in _flatten(value):
        if _blank(rule):
            checks.add("config can't be blank", where)
            continue
        if not isinstance(rule, dict):
            checks.add("config should be a hash", where)
            continue
        delayed = rule.get("when") == "delayed"
        if not delayed and "start_in" in rule:
            checks.add("config contains disallowed keys: start_in", where)
        if delayed:
            if rule.get("start_in") is None:
                checks.add("start in can't be blank", where)
            elif not _is_duration(rule["start_in"]):
                checks.add("start in should be a duration", where)
        if "if" in rule and rule["if"] is not None and not _valid_expression(rule["if"]):
            checks.add("if invalid expression syntax", where)
        if (
            "exists" in rule
            and rule["exists"] is not None
            and not (isinstance(rule["exists"], str) or _is_strings(rule["exists"]))
        ):
            checks.add("exists should be an array of strings", where)
        if "allow_failure" in rule and not isinstance(rule["allow_failure"], bool):
            checks.add("allow failure should be a boolean value", where)
        if "interruptible" in rule and not isinstance(rule["interruptible"], bool):
            checks.add("interruptible should be a boolean value", where)
        if "when" in rule and rule["when"] is not None and rule["when"] not in allowed_when:
            checks.add(f"when unknown value: {_scalar_text(rule['when'])}", where)
        checks.unknown_keys(rule, allowed_keys, where)
        if "variables" in rule:
            _check_variables(checks, rule["variables"], f"{where}:variables")


def _check_needs(checks: _Checks, value: Any, at: str) -> None:
    if value is None or isinstance(value, str):
        return
    if not isinstance(value, list | dict):
        checks.add("config can only be a hash or an array", at)
        return
    for need in value if isinstance(value, list) else [value]:
        if isinstance(need, str):
            continue
        if not isinstance(need, dict) or not any(k in need for k in ("job", "pipeline", "project")):
            checks.add("config should be a string or a hash with a job key", f"{at}:need")


def _check_environment(checks: _Checks, value: Any, at: str) -> None:
    if value is None or isinstance(value, str):
        return
    if not isinstance(value, dict):
        checks.add("config should be a hash or a string", at)
        return
    checks.unknown_keys(value, ENVIRONMENT_KEYS, at)
    if _blank(value.get("name")):
        checks.add("name can't be blank", at)


def _check_retry(checks: _Checks, value: Any, at: str) -> None:
    if value is None:
        return
    if isinstance(value, dict):
        checks.unknown_keys(value, RETRY_KEYS, at)
        value = value.get("max", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        checks.add("config has to be either an integer or a hash", at)
    elif value < 0:
        checks.add("config must be greater than or equal to 0", at)
    elif value > 2:
        checks.add("config must be less than or equal to 2", at)


def _check_parallel(checks: _Checks, value: Any, at: str) -> None:
    if value is None:
        return
    if isinstance(value, dict):
        matrix = value.get("matrix")
        checks.unknown_keys(value, ("matrix",), at)
        if not (isinstance(matrix, list) and matrix and all(isinstance(m, dict) for m in matrix)):
            checks.add("config should be an array of hashes", f"{at}:matrix")
        return
    if isinstance(value, bool) or not isinstance(value, int):
        checks.add("config should be an integer or a hash", at)
    elif value < 1:
        checks.add("config must be greater than or equal to 1", at)
    elif value > MAX_PARALLEL:
        checks.add(f"config must be less than or equal to {MAX_PARALLEL}", at)


def _check_allow_failure(checks: _Checks, value: Any, at: str) -> None:
    if not isinstance(value, dict):
        return
    checks.unknown_keys(value, ("exit_codes",), at)
    codes = value.get("exit_codes")
    valid = (isinstance(codes, int) and not isinstance(codes, bool)) or (
        isinstance(codes, list)
        and all(isinstance(c, int) and not isinstance(c, bool) for c in codes)
    )
    if not valid:
        checks.add("exit codes should be an array of integers or an integer", at)


def _check_trigger(checks: _Checks, value: Any, at: str) -> None:
    if isinstance(value, str):
        return
    if not isinstance(value, dict):
        checks.add("config should be a hash or a string", at)
        return
    checks.unknown_keys(value, TRIGGER_KEYS, at)
    if "strategy" in value and value["strategy"] not in ("depend", "mirror"):
        checks.add("strategy should be depend", at)
    if "include" not in value and "project" not in value:
        checks.add("config must specify either project or include", at)


def _job_own_checks(checks: _Checks, name: str, value: dict[str, Any], kind: str) -> None:
    """The job entry's own validators (processable first, then job or bridge)."""
    if len(name) > MAX_JOB_NAME_LENGTH:
        checks.add(f"name is too long (maximum is {MAX_JOB_NAME_LENGTH} characters)")
    if value.get("rules") is not None:
        present = [k for k in ("only", "except", "start_in") if value.get(k) is not None]
        if present:
            checks.add(f"config key may not be used with `rules`: {', '.join(present)}")
    extends = value.get("extends")
    if extends is not None and not (isinstance(extends, str) or _is_strings(extends)):
        checks.add("extends should be an array of strings or a string")
    rules = value.get("rules")
    if rules is not None and not _nested_hashes(rules):
        checks.add("rules should be an array containing hashes and arrays of hashes")
    if value.get("resource_group") is not None and not isinstance(value["resource_group"], str):
        checks.add("resource group should be a string")
    checks.unknown_keys(value, JOB_KEYS if kind == "build" else BRIDGE_KEYS)
    if kind == "build" and "run" not in value and _blank(value.get("script")):
        checks.add("script can't be blank")
    allowed_when = JOB_WHEN if kind == "build" else BRIDGE_WHEN
    if value.get("when") is not None and value["when"] not in allowed_when:
        checks.add(f"when should be one of: {', '.join(allowed_when)}")
    dependencies = value.get("dependencies")
    if kind == "build" and dependencies is not None and not _is_strings(dependencies):
        checks.add("dependencies should be an array of strings")
    allow_failure = value.get("allow_failure")
    if allow_failure is not None and not isinstance(allow_failure, bool | dict):
        checks.add("allow failure should be a hash or a boolean value")
    if kind == "build":
        if value.get("when") == "delayed":
            if not _is_duration(value.get("start_in")):
                checks.add("start in should be a duration")
            elif parse_duration(value["start_in"]) > 7 * 86400:
                checks.add("start in should not exceed the limit")
        elif value.get("start_in") is not None and rules is None:
            checks.add("start in must be blank")


def _job_entry_checks(checks: _Checks, value: dict[str, Any], kind: str) -> None:
    """The job's child entries, in the service's declaration order."""
    if "stage" in value and value["stage"] is not None and not isinstance(value["stage"], str):
        checks.add("config should be a string", "stage")
    _check_policy(checks, value.get("only"), "only")
    _check_policy(checks, value.get("except"), "except")
    if "rules" in value:
        _check_rules(checks, value["rules"], "rules", RULE_KEYS, RULE_WHEN)
    if "variables" in value:
        _check_variables(checks, value["variables"], "variables")
    inherit = value.get("inherit")
    if inherit is not None:
        if not isinstance(inherit, dict):
            checks.add("config should be a hash", "inherit")
        else:
            checks.unknown_keys(inherit, INHERIT_KEYS, "inherit")
            for key in INHERIT_KEYS:
                if key in inherit and not (
                    isinstance(inherit[key], bool) or _is_strings(inherit[key])
                ):
                    checks.add(
                        "config should be a boolean value or an array of strings", f"inherit:{key}"
                    )
    for key in ("before_script", "script", "after_script"):
        if kind == "build" and key in value and value[key] is not None:
            _check_commands(checks, value[key], key)
    _check_image(checks, value.get("image"), "image")
    _check_services(checks, value.get("services"), "services")
    if value.get("interruptible") is not None and not isinstance(value["interruptible"], bool):
        checks.add("config should be a boolean value", "interruptible")
    if value.get("timeout") is not None and not _is_duration(value["timeout"]):
        checks.add("config should be a duration", "timeout")
    _check_retry(checks, value.get("retry"), "retry")
    _check_tags(checks, value.get("tags"), "tags")
    _check_artifacts(checks, value.get("artifacts"), "artifacts")
    _check_needs(checks, value.get("needs"), "needs")
    _check_environment(checks, value.get("environment"), "environment")
    coverage = value.get("coverage")
    if coverage is not None and not (isinstance(coverage, str) and _compile_pattern(coverage)):
        checks.add("config must be a regular expression with re2 syntax", "coverage")
    _check_parallel(checks, value.get("parallel"), "parallel")
    _check_allow_failure(checks, value.get("allow_failure"), "allow_failure")
    if kind == "bridge":
        _check_trigger(checks, value.get("trigger"), "trigger")


def _rules_warning(name: str, value: dict[str, Any]) -> str | None:
    rules = value.get("rules")
    if not isinstance(rules, list) or not rules:
        return None
    last = rules[-1]
    if isinstance(last, dict) and list(last) == ["when"] and last["when"] != "never":
        return (
            f"jobs:{name} may allow multiple pipelines to run for a single action due to "
            f"`rules:when` clause with no `workflow:rules` - {WARNING_DOCS}"
        )
    return None


def _validate(config: dict[str, Any]) -> tuple[list[str], list[str]]:
    """All structural errors (entry order, as the service composes them) and warnings."""
    jobs: dict[str, Any] = {}
    unknown: list[str] = []
    for key, value in config.items():
        if key in ROOT_KEYS:
            continue
        if key.startswith(".") or value is None or isinstance(value, dict):
            jobs[key] = value
        else:
            unknown.append(key)
    if unknown:
        return [_entry_message(f"root config contains unknown keys: {', '.join(unknown)}")], []

    errors: list[str] = []
    warnings: list[str] = []
    default = config.get("default")
    if default is not None:
        checks = _Checks("default")
        if not isinstance(default, dict):
            checks.add("config should be a hash")
        else:
            checks.unknown_keys(default, DEFAULT_KEYS)
            if not checks.messages:
                for key in ("before_script", "after_script"):
                    if default.get(key) is not None:
                        _check_commands(checks, default[key], key)
                _check_image(checks, default.get("image"), "image")
                _check_services(checks, default.get("services"), "services")
                _check_tags(checks, default.get("tags"), "tags")
                _check_artifacts(checks, default.get("artifacts"), "artifacts")
                _check_retry(checks, default.get("retry"), "retry")
        errors.extend(checks.messages)
    for key in ("before_script", "image", "services", "after_script", "variables", "stages"):
        if key not in config or config[key] is None:
            continue
        value = config[key]
        checks = _Checks(key)
        if key in ("before_script", "after_script"):
            _check_commands(checks, value, None)
        elif key == "image":
            _check_image(checks, value, None)
        elif key == "services":
            _check_services(checks, value, None)
        elif key == "variables":
            _check_variables(checks, value, None)
        elif not _is_strings(value):
            checks.add("config should be an array of strings")
        errors.extend(checks.messages)
    workflow = config.get("workflow")
    if workflow is not None:
        checks = _Checks("workflow")
        if not isinstance(workflow, dict):
            checks.add("config should be a hash")
        else:
            checks.unknown_keys(workflow, WORKFLOW_KEYS)
            rules = workflow.get("rules")
            if rules is not None and not _nested_hashes(rules):
                checks.add("rules should be an array containing hashes and arrays of hashes")
            elif rules is not None:
                _check_rules(checks, rules, "rules", WORKFLOW_RULE_KEYS, WORKFLOW_WHEN)
        errors.extend(checks.messages)
    has_workflow_rules = isinstance(workflow, dict) and workflow.get("rules") is not None
    errors.extend(_validate_jobs(jobs, has_workflow_rules, warnings))
    return [_entry_message(e) for e in errors], warnings[:MAX_WARNINGS]


def _validate_jobs(
    jobs: dict[str, Any], has_workflow_rules: bool, warnings: list[str]
) -> list[str]:
    own: list[str] = []
    kinds = {name: _job_kind(name, value) for name, value in jobs.items()}
    for name, kind in kinds.items():
        if kind is None:
            own.append(
                f"jobs {_humanize(name)} config should implement the script:, run:, or trigger: keyword"
            )
    if not any(kind in ("build", "bridge") for kind in kinds.values()):
        own.append(MSG_NO_VISIBLE_JOB)
    if own:
        return own
    errors: list[str] = []
    for name, value in jobs.items():
        kind = kinds[name]
        checks = _Checks(f"jobs:{name}")
        if kind == "hidden":
            if _blank(value):
                checks.add("config can't be blank")
            errors.extend(checks.messages)
            continue
        _job_own_checks(checks, name, value, kind or "build")
        if checks.messages:
            errors.extend(checks.messages)
            continue
        _job_entry_checks(checks, value, kind or "build")
        errors.extend(checks.messages)
        if not has_workflow_rules:
            warning = _rules_warning(name, value)
            if warning:
                warnings.append(warning)
    return errors
