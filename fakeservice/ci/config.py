"""The CI configuration engine: from ``.gitlab-ci.yml`` text to lint results and pipeline plans.

Pure Python, no HTTP. The CI lint endpoints and pipeline creation both go through
:func:`parse` (and :func:`plan`), so they always agree. :func:`parse` follows the real
service's order of work:

1. load the YAML (libyaml when available, so syntax errors read like the real service's
   ``(<unknown>): ... at line L column C``); no timestamps, GitLab's ``!reference`` tag;
2. expand ``include`` (local files through ``read_local``, project files through
   ``read_project``, child-pipeline artifacts through ``read_artifact``);
3. expand ``extends`` (hashes deep-merged, arrays replaced);
4. resolve ``!reference`` tags;
5. put ``.pre`` and ``.post`` around a configured ``stages`` list;
6. validate the structure with the service's wording (every structural error, in
   document order, lower-cased as the service does);
7. normalise visible jobs into :class:`JobDef` (``default:``, legacy globals, ``inherit``,
   variables, ``parallel`` expansion);
8. run the logical checks (stage exists, needs, dependencies, environments, cycles),
   which like the real service stop at the first error.

:func:`plan` evaluates ``workflow:rules``, ``rules`` and ``only``/``except`` for one
pipeline and returns the stages and :class:`JobSpec` list to create.

Fidelity choices: an unknown top-level key whose value is a hash (or null) is a job, any
other value is ``root config contains unknown keys: <k>`` (the current service turns every
unknown key into a job); ``when`` errors read ``jobs:<name> when should be one of: ...``
as the service words them; the stage error keeps the FIDELITY wording (without the stage
name newer releases add); entry errors are lower-cased, as the service does.

Simplifications (deliberate): ``changes`` always matches; ``exists`` matches unless a
``file_exists`` callback says otherwise; ``only: kubernetes`` never matches;
``include:rules`` are evaluated only when :func:`parse` gets ``variables``; remote,
template and component includes cannot be fetched (the service's offline error texts);
cross-project ``needs`` are ignored; ``cache``, ``release``, ``secrets`` and friends are
accepted without deep validation.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs
import yaml

# -- vocabulary ----------------------------------------------------------------------------

PRE_STAGE = ".pre"
POST_STAGE = ".post"
DEFAULT_STAGES: tuple[str, ...] = (PRE_STAGE, "build", "test", "deploy", POST_STAGE)
DEFAULT_STAGE = "test"


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


ROOT_KEYS = _words(
    "default include before_script image services after_script variables stages cache workflow"
)
LEGACY_GLOBALS = _words("before_script image services after_script cache")
DEFAULT_KEYS = _words(
    "after_script artifacts before_script cache hooks id_tokens image interruptible retry "
    "services tags timeout"
)
PROCESSABLE_KEYS = _words(
    "extends stage only except rules variables inherit allow_failure when needs resource_group"
)
JOB_KEYS = PROCESSABLE_KEYS + _words(
    "tags script run image services start_in artifacts cache dependencies before_script "
    "after_script hooks environment coverage retry parallel interruptible timeout release "
    "secrets id_tokens pages manual_confirmation publish identity"
)
BRIDGE_KEYS = PROCESSABLE_KEYS + _words("trigger environment")
JOB_WHEN = _words("on_success on_failure always manual delayed")
BRIDGE_WHEN = _words("on_success on_failure always manual")
RULE_WHEN = _words("on_success on_failure always never manual delayed")
RULE_KEYS = _words("if changes exists when start_in allow_failure variables needs interruptible")
WORKFLOW_KEYS = _words("rules name auto_cancel")
WORKFLOW_RULE_KEYS = _words("if changes exists when variables auto_cancel")
WORKFLOW_WHEN = _words("always never")
ARTIFACTS_KEYS = _words(
    "name untracked paths reports when expire_in expose_as exclude public access"
)
ARTIFACTS_WHEN = _words("on_success on_failure always")
POLICY_KEYS = _words("refs kubernetes variables changes")
TRIGGER_KEYS = _words("project branch strategy include forward inputs")
ENVIRONMENT_KEYS = _words("name url action on_stop auto_stop_in kubernetes deployment_tier")
INHERIT_KEYS = _words("default variables")
RETRY_KEYS = _words("max when exit_codes")
INCLUDE_ACCESSORS = _words("local remote template project component artifact")
INCLUDE_EXTRA_KEYS = _words("file ref job rules inputs integrity cache")

DEFAULT_ONLY: Mapping[str, Any] = {"refs": ["branches", "tags"]}
DEFAULT_ARTIFACTS_EXPIRE_IN = 30 * 86400
MAX_JOB_NAME_LENGTH = 255
MAX_NESTING_LEVELS = 10
MAX_INCLUDES = 150
MAX_INCLUDE_DEPTH = 100
MAX_WARNINGS = 25
MAX_PARALLEL = 200

MSG_EMPTY = "Please provide content of .gitlab-ci.yml"
MSG_FORMAT = "Invalid configuration format"
MSG_NO_VISIBLE_JOB = "jobs config should contain at least one visible job"
MSG_FILTERED = "Pipeline filtered out by workflow rules."
MSG_NO_JOBS = "No stages / jobs for this pipeline."
MSG_CIRCULAR_NEEDS = "The pipeline has circular dependencies"
WARNING_DOCS = "read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings"

LocalReader = Callable[[str], "str | None"]
ProjectReader = Callable[[str, "str | None", str], "str | None"]
ArtifactReader = Callable[[str, str], "str | None"]
ExistsCheck = Callable[[str], bool]


class PlanError(Exception):
    """A pipeline cannot be created; ``errors`` are the service's messages."""

    def __init__(self, errors: Sequence[str]) -> None:
        self.errors: list[str] = list(errors)
        super().__init__(self.errors[0] if self.errors else "")


class ExpressionError(ValueError):
    """A ``rules:if`` / ``only:variables`` expression that does not parse."""


class _ConfigError(Exception):
    """One error that stops the expansion (include, extends, reference)."""


# -- records ----------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class Reference:
    """An unresolved ``!reference [key, key, ...]`` tag."""

    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"!reference {json.dumps(list(self.path))}"


@attrs.frozen(slots=True)
class Need:
    """One entry of ``needs:`` (a job of the same pipeline)."""

    name: str
    artifacts: bool = True
    optional: bool = False


@attrs.frozen(slots=True)
class ArtifactsSpec:
    """``artifacts:`` of a job; ``expire_in_seconds`` is None for ``never``."""

    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    name: str | None = None
    untracked: bool = False
    when: str = "on_success"
    expire_in: str | None = None
    expire_in_seconds: int | None = DEFAULT_ARTIFACTS_EXPIRE_IN
    reports: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    expose_as: str | None = None
    public: bool = True

    @property
    def junit(self) -> tuple[str, ...]:
        return self.reports.get("junit", ())


@attrs.frozen(slots=True)
class TriggerSpec:
    """``trigger:`` of a bridge: a downstream project, or a child pipeline (``include``)."""

    project: str | None = None
    branch: str | None = None
    strategy: str | None = None
    include: tuple[Mapping[str, Any], ...] = ()
    forward: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def child(self) -> bool:
        return bool(self.include)

    @property
    def local_includes(self) -> tuple[str, ...]:
        return tuple(str(item["local"]) for item in self.include if "local" in item)


@attrs.frozen(slots=True)
class EnvironmentSpec:
    name: str
    url: str | None = None
    action: str = "start"
    on_stop: str | None = None
    deployment_tier: str | None = None


@attrs.frozen(slots=True)
class RetrySpec:
    max: int
    when: tuple[str, ...] = ("always",)
    exit_codes: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class Rule:
    """One entry of ``rules:`` or ``workflow:rules:``."""

    if_: str | None = None
    changes: bool = False
    exists: tuple[str, ...] | None = None
    when: str | None = None
    allow_failure: bool | None = None
    variables: Mapping[str, str] = attrs.field(factory=dict)
    needs: tuple[Need, ...] | None = None
    start_in: int | None = None
    interruptible: bool | None = None
    keys: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class JobDef:
    """A visible job of a valid configuration, defaults and inheritance applied."""

    name: str
    kind: str  # "build" or "bridge"
    stage: str
    stage_idx: int
    index: int
    when: str
    allow_failure: bool
    allow_failure_exit_codes: tuple[int, ...]
    script: tuple[str, ...]
    before_script: tuple[str, ...]
    after_script: tuple[str, ...]
    tags: tuple[str, ...]
    image: str | None
    services: tuple[str, ...]
    variables: Mapping[str, str]
    inherited_variables: Mapping[str, str]
    rules: tuple[Rule, ...] | None
    only: Mapping[str, Any] | None
    except_: Mapping[str, Any] | None
    needs: tuple[Need, ...] | None
    dependencies: tuple[str, ...] | None
    artifacts: ArtifactsSpec | None
    environment: EnvironmentSpec | None
    coverage: str | None
    retry: RetrySpec | None
    timeout: int | None
    start_in: int | None
    trigger: TriggerSpec | None
    interruptible: bool | None
    resource_group: str | None
    parallel: tuple[int, int] | None
    group: str


@attrs.frozen(slots=True)
class Config:
    """The result of :func:`parse`. ``jobs`` is empty unless the configuration is valid."""

    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    merged: Mapping[str, Any] | None = None
    stages: tuple[str, ...] = DEFAULT_STAGES
    jobs: tuple[JobDef, ...] = ()
    variables: Mapping[str, str] = attrs.field(factory=dict)
    workflow_rules: tuple[Rule, ...] | None = None
    includes: tuple[Mapping[str, Any], ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def merged_yaml(self) -> str | None:
        """The expanded configuration as YAML (``---`` first), None when it did not load."""
        if self.merged is None:
            return None
        return yaml.safe_dump(
            _plain(self.merged),
            sort_keys=False,
            default_flow_style=False,
            explicit_start=True,
            allow_unicode=True,
        )

    def job(self, name: str) -> JobDef | None:
        for job in self.jobs:
            if job.name == name:
                return job
        return None


@attrs.frozen(slots=True)
class JobSpec:
    """One job (or bridge, ``kind == "bridge"``) a pipeline should create."""

    name: str
    kind: str
    stage: str
    stage_idx: int
    when: str
    allow_failure: bool
    allow_failure_exit_codes: tuple[int, ...]
    needs: tuple[Need, ...] | None
    dependencies: tuple[str, ...] | None
    variables: Mapping[str, str]
    yaml_variables: Mapping[str, str]
    tag_list: tuple[str, ...]
    script: tuple[str, ...]
    before_script: tuple[str, ...]
    after_script: tuple[str, ...]
    image: str | None
    services: tuple[str, ...]
    artifacts: ArtifactsSpec | None
    trigger: TriggerSpec | None
    environment: EnvironmentSpec | None
    coverage_regex: str | None
    retry: RetrySpec | None
    timeout: int | None
    start_in: int | None
    interruptible: bool | None
    resource_group: str | None
    parallel: tuple[int, int] | None

    @property
    def scheduling_type(self) -> str:
        return "stage" if self.needs is None else "dag"

    @property
    def need_names(self) -> tuple[str, ...] | None:
        return None if self.needs is None else tuple(n.name for n in self.needs)

    @property
    def environment_name(self) -> str | None:
        return self.environment.name if self.environment else None


@attrs.frozen(slots=True)
class PipelinePlan:
    """What :func:`plan` decided: the stages used and the jobs to create, in stage order."""

    stages: tuple[str, ...]
    jobs: tuple[JobSpec, ...]
    workflow_variables: Mapping[str, str] = attrs.field(factory=dict)


# -- YAML -------------------------------------------------------------------------------------

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """Safe loader: no timestamps (they stay strings), ``!reference``, unknown tags ignored."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_reference(loader: Any, node: yaml.Node) -> Reference:
    if not isinstance(node, yaml.SequenceNode):
        raise yaml.constructor.ConstructorError(
            None, None, "!reference needs a sequence", node.start_mark
        )
    return Reference(tuple(_key(item) for item in loader.construct_sequence(node, deep=True)))


def _construct_untagged(loader: Any, _suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


_Loader.add_constructor("!reference", _construct_reference)
_Loader.add_multi_constructor("!", _construct_untagged)

_PY_PROBLEMS: tuple[tuple[str, str], ...] = (
    ("mapping values are not allowed here", "mapping values are not allowed in this context"),
    ("expected ',' or ']'", "did not find expected ',' or ']'"),
    ("expected ',' or '}'", "did not find expected ',' or '}'"),
    ("expected '<document start>'", "did not find expected <document start>"),
    (
        "expected alphabetic or numeric character",
        "did not find expected alphabetic or numeric character",
    ),
)


def _load_yaml(content: str) -> Any:
    """The first YAML document of ``content`` (later documents are ignored, as Psych does)."""
    documents = yaml.load_all(content, Loader=_Loader)
    try:
        return next(iter(documents), None)
    finally:
        documents.close()


def _yaml_error_text(exc: yaml.YAMLError, content: str) -> str:
    """The service's (Psych) wording for a YAML error: ``(<unknown>): ... at line L column C``."""
    if isinstance(exc, yaml.MarkedYAMLError):
        problem = exc.problem or ""
        context = exc.context
        mark = exc.context_mark if context and exc.context_mark else exc.problem_mark
        if problem.startswith("found undefined alias"):
            return f"Unknown alias: {_alias_at(content, mark)}"
        problem = _libyaml_problem(problem, context)
        text = " ".join(part for part in (problem, context) if part)
        if mark is not None:
            return f"(<unknown>): {text} at line {mark.line + 1} column {mark.column + 1}"
        return f"(<unknown>): {text}"
    if isinstance(exc, yaml.reader.ReaderError):
        line = content.count("\n", 0, exc.position) + 1
        column = exc.position - (content.rfind("\n", 0, exc.position) + 1) + 1
        return f"(<unknown>): control characters are not allowed at line {line} column {column}"
    return f"(<unknown>): {exc}"


def _libyaml_problem(problem: str, context: str | None) -> str:
    """Translate pure-Python PyYAML wording into libyaml's (no-op under libyaml)."""
    if problem.startswith("expected <block end>"):
        if context == "while parsing a block collection":
            return "did not find expected '-' indicator"
        return "did not find expected key"
    if problem.startswith("found character") and problem.endswith("that cannot start any token"):
        return "found character that cannot start any token"
    for prefix, replacement in _PY_PROBLEMS:
        if problem.startswith(prefix):
            return replacement
    return problem


def _alias_at(content: str, mark: Any) -> str:
    if mark is None:
        return ""
    lines = content.splitlines()
    line = lines[mark.line] if mark.line < len(lines) else ""
    found = re.match(r"\*?([^\s,\]\}]+)", line[mark.column :])
    return found.group(1) if found else ""


# -- small helpers ------------------------------------------------------------------------------


def _key(value: Any) -> str:
    """A YAML key as the service names it (``true`` not ``True``)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    return str(value)


def _stringify_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {_key(k): _stringify_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stringify_keys(v) for v in value]
    return value


def _plain(value: Any) -> Any:
    """Deep copy into plain dict/list so the YAML dumper never meets proxies or tuples."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Ruby's ``deep_merge``: hashes merge recursively, anything else is replaced."""
    merged = dict(base)
    for key, value in override.items():
        current = merged.get(key)
        if isinstance(current, dict) and isinstance(value, dict):
            merged[key] = deep_merge(current, value)
        else:
            merged[key] = value
    return merged


def _blank(value: Any) -> bool:
    """Ruby's ``blank?``: nil, false, whitespace-only strings, empty arrays and hashes."""
    if value is None or value is False:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, list | dict):
        return not value
    return False


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _nested_strings(value: Any, levels: int = MAX_NESTING_LEVELS) -> bool:
    """An array whose elements are strings or arrays of them, at most ``levels`` deep."""
    if not isinstance(value, list):
        return False
    for element in value:
        if isinstance(element, list) and levels > 1:
            if not _nested_strings(element, levels - 1):
                return False
        elif not isinstance(element, str):
            return False
    return True


def _nested_hashes(value: Any, levels: int = MAX_NESTING_LEVELS) -> bool:
    if not isinstance(value, list):
        return False
    for element in value:
        if isinstance(element, list) and levels > 1:
            if not _nested_hashes(element, levels - 1):
                return False
        elif not isinstance(element, dict):
            return False
    return True


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _commands(value: Any) -> tuple[str, ...]:
    """A script value (string or nested arrays of strings) as a flat tuple of lines."""
    if value is None:
        return ()
    return tuple(str(line) for line in _flatten(value))


def _scalar_text(value: Any) -> str:
    """A YAML scalar as the service turns it into a variable value."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


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


# -- durations ----------------------------------------------------------------------------------

_DURATION_UNITS: dict[str, int] = {}
for _names, _seconds in (
    (("s", "sec", "secs", "second", "seconds"), 1),
    (("m", "min", "mins", "minute", "minutes"), 60),
    (("h", "hr", "hrs", "hour", "hours"), 3600),
    (("d", "day", "days"), 86400),
    (("w", "wk", "wks", "week", "weeks"), 7 * 86400),
    (("mo", "mos", "month", "months"), 30 * 86400),
    (("y", "yr", "yrs", "year", "years"), 365 * 86400),
):
    for _name in _names:
        _DURATION_UNITS[_name] = _seconds

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)")


def parse_duration(text: Any) -> int:
    """Seconds in a human duration (``1 week``, ``2 hrs 20 min``, ``1h30m``, ``90``).

    Raises :class:`ValueError` when the text is not a duration. ``never`` is the caller's
    business (see :func:`parse_expire_in`).
    """
    if isinstance(text, bool):
        raise ValueError(f"not a duration: {text!r}")
    if isinstance(text, int | float):
        return int(text)
    if not isinstance(text, str):
        raise ValueError(f"not a duration: {text!r}")
    cleaned = re.sub(r"\b(and)\b|,", " ", text.strip().lower())
    if not cleaned.strip():
        raise ValueError(f"not a duration: {text!r}")
    total = 0.0
    position = 0
    cleaned = cleaned.strip()
    while position < len(cleaned):
        if cleaned[position].isspace():
            position += 1
            continue
        match = _DURATION_PART.match(cleaned, position)
        if not match or match.end() == position:
            raise ValueError(f"not a duration: {text!r}")
        number, unit = match.groups()
        if unit and unit not in _DURATION_UNITS:
            raise ValueError(f"not a duration: {text!r}")
        total += float(number) * _DURATION_UNITS[unit or "s"]
        position = match.end()
    return round(total)


def parse_expire_in(text: Any) -> int | None:
    """``artifacts:expire_in`` in seconds; None for ``never``."""
    if isinstance(text, str) and text.strip().lower() == "never":
        return None
    return parse_duration(text)


def _is_duration(value: Any) -> bool:
    try:
        parse_duration(value)
    except ValueError:
        return False
    return True


# -- expressions --------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<var>\$\w+)
    | (?P<str>"[^"]*"|'[^']*')
    | (?P<pat>/(?:\\.|[^/\\])+/[ismU]*)
    | (?P<null>null)\b
    | (?P<op>==|!=|=~|!~|&&|\|\|)
    | (?P<lp>\()
    | (?P<rp>\))
    )""",
    re.VERBOSE,
)


@attrs.frozen(slots=True)
class _Pattern:
    regex: re.Pattern[str]


def _compile_pattern(text: str) -> re.Pattern[str] | None:
    """``/body/flags`` as a Python regex, or None when it is not a valid pattern."""
    match = re.fullmatch(r"/(.*)/([ismU]*)", text, re.DOTALL)
    if not match:
        return None
    flags = 0
    for flag in match.group(2):
        flags |= {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "U": 0}[flag]
    try:
        return re.compile(match.group(1), flags)
    except re.error:
        return None


def _tokenize(source: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(source):
        if source[position:].strip() == "":
            break
        match = _TOKEN.match(source, position)
        if not match or match.end() == position:
            raise ExpressionError(f"invalid expression: {source}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


class _Parser:
    """Recursive descent: ``or := and ('||' and)*``, ``and := cmp ('&&' cmp)*``."""

    def __init__(self, source: str) -> None:
        self.tokens = _tokenize(source)
        self.position = 0

    def parse(self) -> tuple[Any, ...]:
        if not self.tokens:
            raise ExpressionError("empty expression")
        tree = self._or()
        if self.position != len(self.tokens):
            raise ExpressionError("unexpected token")
        return tree

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self) -> tuple[str, str]:
        token = self._peek()
        if token is None:
            raise ExpressionError("unexpected end of expression")
        self.position += 1
        return token

    def _or(self) -> tuple[Any, ...]:
        node = self._and()
        while self._peek() == ("op", "||"):
            self._take()
            node = ("||", node, self._and())
        return node

    def _and(self) -> tuple[Any, ...]:
        node = self._comparison()
        while self._peek() == ("op", "&&"):
            self._take()
            node = ("&&", node, self._comparison())
        return node

    def _comparison(self) -> tuple[Any, ...]:
        left = self._operand()
        token = self._peek()
        if token and token[0] == "op" and token[1] in ("==", "!=", "=~", "!~"):
            self._take()
            return (token[1], left, self._operand())
        return left

    def _operand(self) -> tuple[Any, ...]:
        kind, text = self._take()
        if kind == "lp":
            node = self._or()
            if self._take() != ("rp", ")"):
                raise ExpressionError("missing closing parenthesis")
            return node
        if kind == "var":
            return ("var", text[1:])
        if kind == "str":
            return ("str", text[1:-1])
        if kind == "null":
            return ("null",)
        if kind == "pat":
            regex = _compile_pattern(text)
            if regex is None:
                raise ExpressionError(f"invalid pattern {text}")
            return ("pat", regex)
        raise ExpressionError(f"unexpected {text}")


@functools.lru_cache(maxsize=1024)
def compile_expression(source: str) -> tuple[Any, ...]:
    """Parse a ``rules:if`` expression; raises :class:`ExpressionError`."""
    return _Parser(source).parse()


def _truthy(value: Any) -> bool:
    return value is not None and value is not False


def _evaluate(node: tuple[Any, ...], variables: Mapping[str, str]) -> Any:
    kind = node[0]
    if kind == "var":
        return variables.get(node[1])
    if kind == "str":
        return node[1]
    if kind == "null":
        return None
    if kind == "pat":
        return _Pattern(node[1])
    if kind == "&&":
        left = _evaluate(node[1], variables)
        return _evaluate(node[2], variables) if _truthy(left) else left
    if kind == "||":
        left = _evaluate(node[1], variables)
        return left if _truthy(left) else _evaluate(node[2], variables)
    left = _evaluate(node[1], variables)
    right = _evaluate(node[2], variables)
    if kind == "==":
        return _same(left, right)
    if kind == "!=":
        return not _same(left, right)
    regex = _as_regex(right)
    text = "" if left is None else str(left)
    if kind == "=~":
        return regex is not None and regex.search(text) is not None
    return regex is None or regex.search(text) is None


def _same(left: Any, right: Any) -> bool:
    if isinstance(left, _Pattern) or isinstance(right, _Pattern):
        return left == right
    return left == right


def _as_regex(value: Any) -> re.Pattern[str] | None:
    if isinstance(value, _Pattern):
        return value.regex
    if isinstance(value, str):
        return _compile_pattern(value)
    return None


def evaluate_expression(source: str, variables: Mapping[str, str]) -> bool:
    """Whether the expression holds for ``variables`` (a value must be present to count)."""
    result = _evaluate(compile_expression(source), variables)
    if result is None or result is False:
        return False
    if isinstance(result, str):
        return bool(result.strip())
    return True


def _valid_expression(source: Any) -> bool:
    if not isinstance(source, str):
        return False
    try:
        compile_expression(source)
    except ExpressionError:
        return False
    return True


# -- include ---------------------------------------------------------------------------------


@attrs.frozen(slots=True)
class _Source:
    kind: str  # local, project, remote, template, component, artifact
    location: str
    project: str | None = None
    ref: str | None = None
    job: str | None = None
    rules: Any = None

    @property
    def identity(self) -> tuple[str, str, str | None, str | None]:
        return (self.kind, self.location.lstrip("/"), self.project, self.ref)


class _Includer:
    """Expands ``include`` recursively; records what was included for the lint answer."""

    def __init__(
        self,
        *,
        read_local: LocalReader | None,
        read_project: ProjectReader | None,
        read_artifact: ArtifactReader | None,
        project_path: str | None,
        sha: str | None,
        project_url: str | None,
        variables: Mapping[str, str] | None,
    ) -> None:
        self.read_local = read_local
        self.read_project = read_project
        self.read_artifact = read_artifact
        self.project_path = project_path
        self.sha = sha
        self.project_url = project_url
        self.variables = variables
        self.records: list[dict[str, Any]] = []
        self.seen: set[tuple[str, str, str | None, str | None]] = set()

    def expand(
        self, data: dict[str, Any], depth: int = 0, within: tuple[str, str | None] | None = None
    ) -> dict[str, Any]:
        if "include" not in data:
            return data
        raw = data["include"]
        rest = {k: v for k, v in data.items() if k != "include"}
        items = [] if raw is None else raw if isinstance(raw, list) else [raw]
        merged: dict[str, Any] = {}
        for item in items:
            for source in self._sources(item, within):
                if not self._included(source):
                    continue
                if source.identity in self.seen:
                    continue
                self.seen.add(source.identity)
                if len(self.seen) > MAX_INCLUDES:
                    raise _ConfigError(f"Maximum of {MAX_INCLUDES} nested includes are allowed!")
                if depth >= MAX_INCLUDE_DEPTH:
                    raise _ConfigError(
                        f"Maximum of {MAX_INCLUDE_DEPTH} nested includes are allowed!"
                    )
                loaded = self._load(source)
                self.records.append(self._record(source))
                nested_within = (source.project, source.ref) if source.project else within
                merged = deep_merge(merged, self.expand(loaded, depth + 1, nested_within))
        return deep_merge(merged, rest)

    def _included(self, source: _Source) -> bool:
        if not source.rules or self.variables is None or not isinstance(source.rules, list):
            return True
        for raw in source.rules:
            if not isinstance(raw, dict):
                continue
            condition = raw.get("if")
            if condition is not None and not (
                _valid_expression(condition) and evaluate_expression(condition, self.variables)
            ):
                continue
            return raw.get("when", "always") != "never"
        return False

    def _sources(self, item: Any, within: tuple[str, str | None] | None) -> list[_Source]:
        if isinstance(item, str):
            if re.match(r"https?://", item):
                return [_Source("remote", item)]
            return [self._local(item, within)]
        if isinstance(item, dict):
            accessors = [k for k in item if k in INCLUDE_ACCESSORS]
            unknown = [k for k in item if k not in INCLUDE_ACCESSORS + INCLUDE_EXTRA_KEYS]
            if len(accessors) != 1 or unknown:
                raise _ConfigError(
                    f"Include `{_ruby_json(item)}` needs to match exactly one accessor!"
                )
            accessor = accessors[0]
            rules = item.get("rules")
            if accessor == "local":
                source = self._local(_scalar_text(item["local"]), within)
                return [attrs.evolve(source, rules=rules)]
            if accessor == "project":
                files = item.get("file")
                names = files if isinstance(files, list) else [files]
                ref = None if item.get("ref") is None else _scalar_text(item["ref"])
                return [
                    _Source(
                        "project",
                        _scalar_text(name),
                        _scalar_text(item["project"]),
                        ref,
                        rules=rules,
                    )
                    for name in names
                ]
            if accessor == "artifact":
                return [
                    _Source(
                        "artifact",
                        _scalar_text(item["artifact"]),
                        job=_scalar_text(item.get("job")),
                    )
                ]
            return [_Source(accessor, _scalar_text(item[accessor]), rules=rules)]
        raise _ConfigError(f"Include `{_ruby_json(item)}` needs to match exactly one accessor!")

    @staticmethod
    def _local(location: str, within: tuple[str, str | None] | None) -> _Source:
        if within is not None:
            return _Source("project", location, within[0], within[1])
        return _Source("local", location)

    def _load(self, source: _Source) -> dict[str, Any]:
        if source.kind in ("local", "project", "artifact") and not source.location.endswith(
            (".yml", ".yaml")
        ):
            raise _ConfigError(f"Included file `{source.location}` does not have YAML extension!")
        content = self._fetch(source)
        try:
            loaded = _load_yaml(content)
        except yaml.YAMLError:
            loaded = None
        if not isinstance(loaded, dict) or not loaded:
            raise _ConfigError(
                f"Included file `{source.location}` does not have valid YAML syntax!"
            )
        return _stringify_keys(loaded)

    def _fetch(self, source: _Source) -> str:
        path = source.location.lstrip("/")
        if source.kind == "local":
            if self.read_local is None:
                raise _ConfigError(f"Local file `{source.location}` does not have project!")
            content = self.read_local(path)
            if content is None:
                raise _ConfigError(f"Local file `{source.location}` does not exist!")
            if not content.strip():
                raise _ConfigError(f"Local file `{source.location}` is empty!")
            return content
        if source.kind == "project":
            project = source.project or ""
            if self.read_project is None:
                raise _ConfigError(
                    f"Project `{project}` not found or access denied! Make sure any includes "
                    "in the pipeline configuration are correctly defined."
                )
            content = self.read_project(project, source.ref, path)
            if content is None:
                raise _ConfigError(f"Project `{project}` file `{source.location}` does not exist!")
            if not content.strip():
                raise _ConfigError(f"Project `{project}` file `{source.location}` is empty!")
            return content
        if source.kind == "artifact":
            content = None
            if self.read_artifact is not None:
                content = self.read_artifact(source.job or "", path)
            if content is None:
                raise _ConfigError(
                    f"Job `{source.job}` not found in parent pipeline or does not have artifacts!"
                )
            return content
        if source.kind == "remote":
            raise _ConfigError(
                f"Remote file `{source.location}` could not be fetched because of a socket error!"
            )
        if source.kind == "template":
            raise _ConfigError(f"Template file `{source.location}` is not a valid location!")
        raise _ConfigError(f"Component '{source.location}' - content not found")

    def _record(self, source: _Source) -> dict[str, Any]:
        path = source.location.lstrip("/")
        blob = raw = None
        extra: dict[str, Any] = {}
        kind = source.kind
        if source.kind == "local" and self.project_url and self.sha:
            blob = f"{self.project_url}/-/blob/{self.sha}/{path}"
            raw = f"{self.project_url}/-/raw/{self.sha}/{path}"
        elif source.kind == "project":
            kind = "file"
            extra = {"project": source.project, "ref": source.ref or "HEAD"}
        elif source.kind == "remote":
            raw = source.location
        elif source.kind == "artifact":
            extra = {"job_name": source.job}
        return {
            "type": kind,
            "location": source.location,
            "blob": blob,
            "raw": raw,
            "extra": extra,
            "context_project": self.project_path,
            "context_sha": self.sha,
        }


def _ruby_json(value: Any) -> str:
    return json.dumps(_plain(value), separators=(",", ":"), default=str)


# -- extends and !reference -----------------------------------------------------------------------


def _expand_extends(config: dict[str, Any]) -> dict[str, Any]:
    """Resolve ``extends`` on every top-level hash, in document order (the service's errors)."""
    context = dict(config)
    done: set[str] = set()

    def extend(key: str, ancestors: tuple[str, ...]) -> Any:
        value = context[key]
        if key in done or not isinstance(value, dict) or "extends" not in value:
            return value
        raw = value["extends"]
        names = [_key(n) for n in (raw if isinstance(raw, list) else [] if raw is None else [raw])]
        unknown = [n for n in names if n not in context]
        if unknown:
            raise _ConfigError(f"{key}: unknown keys in `extends` ({', '.join(unknown)})")
        invalid = [n for n in names if not isinstance(context[n], dict)]
        if invalid:
            raise _ConfigError(f"{key}: invalid base hashes in `extends` ({', '.join(invalid)})")
        if len(ancestors) > MAX_NESTING_LEVELS:
            raise _ConfigError(f"{key}: nesting too deep in `extends`")
        if key in ancestors:
            raise _ConfigError(f"{key}: circular dependency detected in `extends`")
        merged: dict[str, Any] = {}
        for name in names:
            merged = deep_merge(merged, extend(name, (*ancestors, key)))
        context[key] = deep_merge(merged, value)
        done.add(key)
        return context[key]

    for key in list(context):
        extend(key, ())
    return context


def _resolve_references(config: dict[str, Any]) -> dict[str, Any]:
    def lookup(reference: Reference, chain: tuple[Reference, ...]) -> Any:
        if reference in chain or len(chain) > MAX_NESTING_LEVELS:
            raise _ConfigError(f"{reference} is part of a circular chain")
        node: Any = config
        for part in reference.path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            else:
                raise _ConfigError(f"{reference} could not be found")
        return resolve(node, (*chain, reference))

    def resolve(value: Any, chain: tuple[Reference, ...]) -> Any:
        if isinstance(value, Reference):
            return lookup(value, chain)
        if isinstance(value, dict):
            return {k: resolve(v, chain) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v, chain) for v in value]
        return value

    return resolve(config, ())


def _inject_edge_stages(config: dict[str, Any]) -> dict[str, Any]:
    stages = config.get("stages")
    if not isinstance(stages, list):
        return config
    edged = list(stages)
    if PRE_STAGE not in edged:
        edged.insert(0, PRE_STAGE)
    if POST_STAGE not in edged:
        edged.append(POST_STAGE)
    return {**config, "stages": edged}


# -- structural validation ----------------------------------------------------------------------


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


# -- normalisation ------------------------------------------------------------------------------


def _variables(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    result: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            result[key] = _scalar_text(item.get("value"))
        else:
            result[key] = _scalar_text(item)
    return result


def _needs(value: Any) -> tuple[Need, ...] | None:
    if value is None:
        return None
    items = value if isinstance(value, list) else [value]
    needs: list[Need] = []
    for item in items:
        if isinstance(item, str):
            needs.append(Need(item))
        elif isinstance(item, dict) and "job" in item:
            needs.append(
                Need(
                    _scalar_text(item["job"]),
                    artifacts=item.get("artifacts", True) is not False,
                    optional=item.get("optional", False) is True,
                )
            )
    return tuple(needs)


def _rules(value: Any) -> tuple[Rule, ...] | None:
    if value is None:
        return None
    rules: list[Rule] = []
    for raw in _flatten(value):
        if not isinstance(raw, dict):
            continue
        exists = raw.get("exists")
        if isinstance(exists, dict):
            exists = exists.get("paths")
        start_in = raw.get("start_in")
        rules.append(
            Rule(
                if_=raw.get("if"),
                changes="changes" in raw,
                exists=None if exists is None else tuple(_flatten(exists)),
                when=raw.get("when"),
                allow_failure=raw.get("allow_failure"),
                variables=_variables(raw.get("variables")),
                needs=_needs(raw["needs"]) if "needs" in raw else None,
                start_in=parse_duration(start_in) if start_in is not None else None,
                interruptible=raw.get("interruptible"),
                keys=tuple(raw),
            )
        )
    return tuple(rules)


def _policy(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, list):
        return {"refs": list(value)}
    if isinstance(value, dict):
        return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
    return None


def _artifacts(value: Any) -> ArtifactsSpec | None:
    if not isinstance(value, dict):
        return None
    expire_in = value.get("expire_in")
    reports: dict[str, tuple[str, ...]] = {}
    for kind, paths in (value.get("reports") or {}).items():
        if isinstance(paths, str):
            reports[kind] = (paths,)
        elif isinstance(paths, list):
            reports[kind] = tuple(str(p) for p in paths)
        elif isinstance(paths, dict) and "path" in paths:
            reports[kind] = (str(paths["path"]),)
    return ArtifactsSpec(
        paths=tuple(value.get("paths") or ()),
        exclude=tuple(value.get("exclude") or ()),
        name=None if value.get("name") is None else _scalar_text(value["name"]),
        untracked=value.get("untracked") is True,
        when=value.get("when") or "on_success",
        expire_in=None if expire_in is None else _scalar_text(expire_in),
        expire_in_seconds=(
            DEFAULT_ARTIFACTS_EXPIRE_IN if expire_in is None else parse_expire_in(expire_in)
        ),
        reports=reports,
        expose_as=value.get("expose_as"),
        public=value.get("public", True) is not False,
    )


def _environment(value: Any) -> EnvironmentSpec | None:
    if isinstance(value, str):
        return EnvironmentSpec(value)
    if isinstance(value, dict) and value.get("name"):
        return EnvironmentSpec(
            _scalar_text(value["name"]),
            url=value.get("url"),
            action=value.get("action") or "start",
            on_stop=value.get("on_stop"),
            deployment_tier=value.get("deployment_tier"),
        )
    return None


def _retry(value: Any) -> RetrySpec | None:
    if value is None:
        return None
    if isinstance(value, dict):
        when = value.get("when", "always")
        codes = value.get("exit_codes") or ()
        return RetrySpec(
            int(value.get("max", 0)),
            tuple(when if isinstance(when, list) else [when]),
            tuple(codes if isinstance(codes, list) else [codes]),
        )
    return RetrySpec(int(value))


def _trigger(value: Any) -> TriggerSpec | None:
    if isinstance(value, str):
        return TriggerSpec(project=value)
    if not isinstance(value, dict):
        return None
    include = value.get("include")
    items: list[dict[str, Any]] = []
    for item in [] if include is None else include if isinstance(include, list) else [include]:
        items.append({"local": item} if isinstance(item, str) else dict(item))
    return TriggerSpec(
        project=value.get("project"),
        branch=value.get("branch"),
        strategy=value.get("strategy"),
        include=tuple(items),
        forward=dict(value.get("forward") or {}),
    )


def _image(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name")
    return None if value is None else _scalar_text(value)


def _services(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(n for n in (_image(v) for v in value) if n is not None)


def _allowed(setting: Any, key: str) -> bool:
    if isinstance(setting, list):
        return key in setting
    return setting is not False


def _parallel_variants(
    name: str, value: Any
) -> list[tuple[str, dict[str, str], tuple[int, int] | None]]:
    """``(job name, extra variables, (index, total))`` for each job ``parallel`` makes."""
    parallel = value.get("parallel")
    if isinstance(parallel, int) and not isinstance(parallel, bool):
        return [(f"{name} {i}/{parallel}", {}, (i, parallel)) for i in range(1, parallel + 1)]
    if isinstance(parallel, dict) and isinstance(parallel.get("matrix"), list):
        variants: list[tuple[str, dict[str, str], tuple[int, int] | None]] = []
        for entry in parallel["matrix"]:
            keys = list(entry)
            choices = [v if isinstance(v, list) else [v] for v in entry.values()]
            for combination in itertools.product(*choices):
                values = [_scalar_text(v) for v in combination]
                variants.append(
                    (f"{name}: [{', '.join(values)}]", dict(zip(keys, values, strict=True)), None)
                )
        total = len(variants)
        return [(n, v, (i, total)) for i, (n, v, _) in enumerate(variants, start=1)]
    return [(name, {}, None)]


def _expand_names(
    names: tuple[str, ...] | None, groups: Mapping[str, list[str]]
) -> tuple[str, ...] | None:
    if names is None:
        return None
    return tuple(expanded for name in names for expanded in groups.get(name, [name]))


def _expand_needs(
    needs: tuple[Need, ...] | None, groups: Mapping[str, list[str]]
) -> tuple[Need, ...] | None:
    if needs is None:
        return None
    return tuple(
        attrs.evolve(need, name=expanded)
        for need in needs
        for expanded in groups.get(need.name, [need.name])
    )


def _normalize(
    config: dict[str, Any], stages: tuple[str, ...], has_workflow_rules: bool
) -> list[JobDef]:
    defaults: dict[str, Any] = {k: config[k] for k in LEGACY_GLOBALS if config.get(k) is not None}
    if isinstance(config.get("default"), dict):
        defaults.update({k: v for k, v in config["default"].items() if v is not None})
    global_variables = _variables(config.get("variables"))
    visible = [
        (name, value)
        for name, value in config.items()
        if name not in ROOT_KEYS and _job_kind(name, value) in ("build", "bridge")
    ]
    groups: dict[str, list[str]] = {}
    for name, value in visible:
        if value.get("parallel") is not None:
            groups[name] = [variant for variant, _, _ in _parallel_variants(name, value)]
    jobs: list[JobDef] = []
    for name, value in visible:
        kind = _job_kind(name, value) or "build"
        inherit = value.get("inherit") if isinstance(value.get("inherit"), dict) else {}
        inherit_default = inherit.get("default", True)
        inherit_variables = inherit.get("variables", True)

        def inherited(
            key: str, value: dict[str, Any] = value, setting: Any = inherit_default
        ) -> Any:
            if key in value:
                return value[key]
            return defaults.get(key) if _allowed(setting, key) else None

        when = value.get("when") or "on_success"
        raw_af = value.get("allow_failure")
        if isinstance(raw_af, bool):
            allow_failure, exit_codes = raw_af, ()
        elif isinstance(raw_af, dict):
            codes = raw_af.get("exit_codes")
            allow_failure, exit_codes = False, tuple(codes if isinstance(codes, list) else [codes])
        else:
            allow_failure, exit_codes = when == "manual", ()
        rules = _rules(value.get("rules"))
        if rules is not None or has_workflow_rules:
            only, except_ = _policy(value.get("only")), _policy(value.get("except"))
        else:
            only = _policy(value.get("only")) or {"refs": list(DEFAULT_ONLY["refs"])}
            except_ = _policy(value.get("except"))
        inherited_vars = {
            k: v for k, v in global_variables.items() if _allowed(inherit_variables, k)
        }
        stage = value.get("stage") or DEFAULT_STAGE
        timeout = inherited("timeout")
        start_in = value.get("start_in")
        for job_name, matrix_vars, parallel in _parallel_variants(name, value):
            jobs.append(
                JobDef(
                    name=job_name,
                    kind=kind,
                    stage=stage,
                    stage_idx=stages.index(stage) if stage in stages else -1,
                    index=len(jobs),
                    when=when,
                    allow_failure=allow_failure,
                    allow_failure_exit_codes=exit_codes,
                    script=_commands(value.get("script")) if kind == "build" else (),
                    before_script=_commands(inherited("before_script")) if kind == "build" else (),
                    after_script=_commands(inherited("after_script")) if kind == "build" else (),
                    tags=tuple(inherited("tags") or ()) if kind == "build" else (),
                    image=_image(inherited("image")) if kind == "build" else None,
                    services=_services(inherited("services")) if kind == "build" else (),
                    variables={**_variables(value.get("variables")), **matrix_vars},
                    inherited_variables=inherited_vars,
                    rules=rules,
                    only=only,
                    except_=except_,
                    needs=_expand_needs(_needs(value.get("needs")), groups)
                    if "needs" in value
                    else None,
                    dependencies=_expand_names(
                        None if value.get("dependencies") is None else tuple(value["dependencies"]),
                        groups,
                    ),
                    artifacts=_artifacts(inherited("artifacts")) if kind == "build" else None,
                    environment=_environment(value.get("environment")),
                    coverage=_coverage(value.get("coverage")),
                    retry=_retry(inherited("retry")) if kind == "build" else None,
                    timeout=None if timeout is None else parse_duration(timeout),
                    start_in=parse_duration(start_in) if when == "delayed" and start_in else None,
                    trigger=_trigger(value.get("trigger")) if kind == "bridge" else None,
                    interruptible=inherited("interruptible"),
                    resource_group=value.get("resource_group"),
                    parallel=parallel,
                    group=name,
                )
            )
    return jobs


def _coverage(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    match = re.fullmatch(r"/(.*)/[ismU]*", value, re.DOTALL)
    return match.group(1) if match else value


# -- logical validation ---------------------------------------------------------------------------


def _logical_error(jobs: Sequence[JobDef], stages: tuple[str, ...]) -> str | None:
    """The first logical error, as the service raises it (it stops at the first)."""
    by_name = {job.name: job for job in jobs}
    for job in jobs:
        if job.stage not in stages:
            return (
                f"{job.name} job: chosen stage does not exist; available stages are "
                f"{', '.join(stages)}"
            )
        for dependency in job.dependencies or ():
            error = _dependency_error(job, dependency, "dependency", by_name, stages, False)
            if error:
                return error
        for need in job.needs or ():
            error = _dependency_error(job, need.name, "need", by_name, stages, need.optional)
            if error:
                return error
        if job.environment and job.environment.on_stop:
            error = _on_stop_error(job, job.environment, by_name)
            if error:
                return error
    if _has_cycle(jobs):
        return MSG_CIRCULAR_NEEDS
    return None


def _dependency_error(
    job: JobDef,
    dependency: str,
    kind: str,
    by_name: Mapping[str, JobDef],
    stages: tuple[str, ...],
    optional: bool,
) -> str | None:
    other = by_name.get(dependency)
    if other is None:
        return None if optional else f"{job.name} job: undefined {kind}: {dependency}"
    if other.stage not in stages or stages.index(other.stage) > stages.index(job.stage):
        return f"{job.name} job: {kind} {dependency} is not defined in current or prior stages"
    return None


def _on_stop_error(
    job: JobDef, environment: EnvironmentSpec, by_name: Mapping[str, JobDef]
) -> str | None:
    on_stop = environment.on_stop or ""
    stop = by_name.get(on_stop)
    if stop is None:
        return f"{job.name} job: on_stop job {on_stop} is not defined"
    if stop.environment is None:
        return f"{job.name} job: on_stop job {on_stop} does not have environment defined"
    if stop.environment.name != environment.name:
        return f"{job.name} job: on_stop job {on_stop} have different environment name"
    if stop.environment.action != "stop":
        return f"{job.name} job: on_stop job {on_stop} needs to have action stop defined"
    return None


def _has_cycle(jobs: Sequence[JobDef]) -> bool:
    graph = {job.name: [n.name for n in job.needs or ()] for job in jobs}
    state: dict[str, int] = {}

    def visit(node: str) -> bool:
        state[node] = 1
        for child in graph.get(node, ()):
            if child not in graph:
                continue
            if state.get(child) == 1 or (state.get(child) is None and visit(child)):
                return True
        state[node] = 2
        return False

    return any(state.get(name) is None and visit(name) for name in graph)


# -- parse ------------------------------------------------------------------------------------------


def parse(
    content: str | None,
    *,
    read_local: LocalReader | None = None,
    read_project: ProjectReader | None = None,
    read_artifact: ArtifactReader | None = None,
    project_path: str | None = None,
    sha: str | None = None,
    project_url: str | None = None,
    variables: Mapping[str, str] | None = None,
) -> Config:
    """Expand, validate and normalise a CI configuration (see the module docstring).

    ``read_local(path)`` returns a file of the project at the pipeline's commit, or None
    when it does not exist; without it ``include: local`` fails as on the instance-level
    lint (``does not have project!``). ``project_path``, ``sha`` and ``project_url`` only
    fill the ``includes`` metadata. ``variables``, when given, decide ``include:rules``.
    """
    if content is None or not content.strip():
        return Config(errors=(MSG_EMPTY,), merged=None)
    try:
        data = _load_yaml(content)
    except yaml.YAMLError as exc:
        return Config(errors=(_yaml_error_text(exc, content),))
    if not isinstance(data, dict):
        return Config(errors=(MSG_FORMAT,))
    includer = _Includer(
        read_local=read_local,
        read_project=read_project,
        read_artifact=read_artifact,
        project_path=project_path,
        sha=sha,
        project_url=project_url,
        variables=variables,
    )
    try:
        expanded = includer.expand(_stringify_keys(data))
        expanded = _resolve_references(_expand_extends(expanded))
    except _ConfigError as exc:
        return Config(errors=(str(exc),))
    expanded = _inject_edge_stages(expanded)
    includes = tuple(includer.records)
    errors, warnings = _validate(expanded)
    stages_raw = expanded.get("stages")
    stages = tuple(stages_raw) if _is_strings(stages_raw) else DEFAULT_STAGES
    if errors:
        return Config(tuple(errors), tuple(warnings), expanded, stages, includes=includes)
    workflow = expanded.get("workflow")
    workflow_rules = _rules(workflow.get("rules")) if isinstance(workflow, dict) else None
    jobs = _normalize(expanded, stages, workflow_rules is not None)
    logical = _logical_error(jobs, stages)
    if logical:
        return Config((logical,), tuple(warnings), expanded, stages, includes=includes)
    return Config(
        errors=(),
        warnings=tuple(warnings),
        merged=expanded,
        stages=stages,
        jobs=tuple(jobs),
        variables=_variables(expanded.get("variables")),
        workflow_rules=workflow_rules,
        includes=includes,
    )


def parse_child(
    trigger: TriggerSpec,
    *,
    read_local: LocalReader | None = None,
    read_project: ProjectReader | None = None,
    read_artifact: ArtifactReader | None = None,
    project_path: str | None = None,
    sha: str | None = None,
    project_url: str | None = None,
) -> Config:
    """The configuration of the child pipeline a bridge's ``trigger:include`` describes."""
    content = yaml.safe_dump({"include": [_plain(item) for item in trigger.include]})
    return parse(
        content,
        read_local=read_local,
        read_project=read_project,
        read_artifact=read_artifact,
        project_path=project_path,
        sha=sha,
        project_url=project_url,
    )


# -- planning ---------------------------------------------------------------------------------------

_REF_KEYWORDS: dict[str, Callable[[bool, str], bool]] = {
    "branches": lambda tag, source: (
        not tag and source not in ("merge_request_event", "external_pull_request_event")
    ),
    "tags": lambda tag, source: tag,
    "api": lambda tag, source: source == "api",
    "external": lambda tag, source: source == "external",
    "pipelines": lambda tag, source: source in ("pipeline", "parent_pipeline"),
    "pushes": lambda tag, source: source == "push",
    "schedules": lambda tag, source: source == "schedule",
    "triggers": lambda tag, source: source == "trigger",
    "web": lambda tag, source: source == "web",
    "merge_requests": lambda tag, source: source == "merge_request_event",
    "external_pull_requests": lambda tag, source: source == "external_pull_request_event",
    "chat": lambda tag, source: source == "chat",
}


@attrs.frozen(slots=True)
class _Pipeline:
    ref: str
    tag: bool
    source: str
    project_path: str


def ref_slug(ref: str) -> str:
    """``CI_COMMIT_REF_SLUG``: lower-case, non-alphanumerics to ``-``, at most 63 characters."""
    slug = re.sub(r"[^a-z0-9]", "-", ref.lower())[:63]
    return slug.strip("-")


def predefined_variables(
    *,
    ref: str,
    tag: bool = False,
    source: str = "push",
    default_branch: str = "main",
    project_path: str = "",
    sha: str | None = None,
) -> dict[str, str]:
    """The predefined variables ``rules`` can test (a subset of the service's)."""
    variables = {
        "CI": "true",
        "CI_COMMIT_REF_NAME": ref,
        "CI_COMMIT_REF_SLUG": ref_slug(ref),
        "CI_PIPELINE_SOURCE": source,
        "CI_DEFAULT_BRANCH": default_branch,
        "CI_PROJECT_PATH": project_path,
    }
    if tag:
        variables["CI_COMMIT_TAG"] = ref
    elif source not in ("merge_request_event", "external_pull_request_event"):
        variables["CI_COMMIT_BRANCH"] = ref
    if sha:
        variables["CI_COMMIT_SHA"] = sha
        variables["CI_COMMIT_SHORT_SHA"] = sha[:8]
    return variables


def _ref_matches(pattern: str, pipeline: _Pipeline) -> bool:
    keyword = _REF_KEYWORDS.get(pattern)
    if keyword is not None:
        return keyword(pipeline.tag, pipeline.source)
    name, _, path = pattern.partition("@")
    if path and path != pipeline.project_path:
        return False
    regex = _compile_pattern(name) if name.startswith("/") else None
    if regex is not None:
        return regex.search(pipeline.ref) is not None
    return name == pipeline.ref


def _policy_results(
    policy: Mapping[str, Any], pipeline: _Pipeline, scope: Mapping[str, str]
) -> list[bool]:
    results: list[bool] = []
    if "refs" in policy:
        results.append(any(_ref_matches(str(p), pipeline) for p in policy["refs"] or ()))
    if "variables" in policy:
        results.append(any(evaluate_expression(e, scope) for e in policy["variables"] or ()))
    if "changes" in policy:
        results.append(True)
    if "kubernetes" in policy:
        results.append(False)
    return results


def _rule_matches(rule: Rule, scope: Mapping[str, str], file_exists: ExistsCheck | None) -> bool:
    if rule.if_ is not None and not evaluate_expression(rule.if_, scope):
        return False
    if rule.exists is not None and file_exists is not None:
        return any(file_exists(path) for path in rule.exists)
    return True


def _first_rule(
    rules: Iterable[Rule], scope: Mapping[str, str], file_exists: ExistsCheck | None
) -> Rule | None:
    for rule in rules:
        if _rule_matches(rule, scope, file_exists):
            return rule
    return None


def plan(
    config: Config,
    *,
    ref: str,
    tag: bool = False,
    source: str = "push",
    variables: Mapping[str, str] | None = None,
    project_variables: Mapping[str, str] | None = None,
    default_branch: str = "main",
    project_path: str = "",
    sha: str | None = None,
    predefined: Mapping[str, str] | None = None,
    file_exists: ExistsCheck | None = None,
) -> PipelinePlan:
    """Decide which jobs a pipeline for ``ref`` creates; raises :class:`PlanError`.

    Variable precedence (lowest first): predefined, global ``variables``, the matching
    ``workflow:rules`` variables, job ``variables``, the matching ``rules`` variables,
    project CI/CD variables, pipeline variables (``variables``).
    """
    if not config.valid:
        raise PlanError(config.errors)
    pipeline_vars = dict(variables or {})
    project_vars = dict(project_variables or {})
    base = predefined_variables(
        ref=ref,
        tag=tag,
        source=source,
        default_branch=default_branch,
        project_path=project_path,
        sha=sha,
    )
    base.update(predefined or {})
    workflow_vars: dict[str, str] = {}
    if config.workflow_rules is not None:
        scope = {**base, **config.variables, **project_vars, **pipeline_vars}
        matched = _first_rule(config.workflow_rules, scope, file_exists)
        if matched is None or matched.when == "never":
            raise PlanError([MSG_FILTERED])
        workflow_vars = dict(matched.variables)
    pipeline = _Pipeline(ref, tag, source, project_path)
    specs: list[JobSpec] = []
    for job in sorted(config.jobs, key=lambda j: (j.stage_idx, j.index)):
        yaml_vars = {**job.inherited_variables, **workflow_vars, **job.variables}
        scope = {**base, **yaml_vars, **project_vars, **pipeline_vars}
        when, allow_failure = job.when, job.allow_failure
        needs, start_in, interruptible = job.needs, job.start_in, job.interruptible
        if job.rules is not None:
            rule = _first_rule(job.rules, scope, file_exists)
            if rule is None or rule.when == "never":
                continue
            when = rule.when or job.when
            if rule.allow_failure is not None:
                allow_failure = rule.allow_failure
            yaml_vars.update(rule.variables)
            needs = rule.needs if rule.needs is not None else needs
            start_in = rule.start_in if rule.start_in is not None else start_in
            interruptible = rule.interruptible if rule.interruptible is not None else interruptible
        else:
            if job.only is not None and not all(_policy_results(job.only, pipeline, scope)):
                continue
            if job.except_ is not None and any(_policy_results(job.except_, pipeline, scope)):
                continue
        specs.append(
            JobSpec(
                name=job.name,
                kind=job.kind,
                stage=job.stage,
                stage_idx=job.stage_idx,
                when=when,
                allow_failure=allow_failure,
                allow_failure_exit_codes=job.allow_failure_exit_codes,
                needs=needs,
                dependencies=job.dependencies,
                variables={**yaml_vars, **project_vars, **pipeline_vars},
                yaml_variables=yaml_vars,
                tag_list=job.tags,
                script=job.script,
                before_script=job.before_script,
                after_script=job.after_script,
                image=job.image,
                services=job.services,
                artifacts=job.artifacts,
                trigger=job.trigger,
                environment=job.environment,
                coverage_regex=job.coverage,
                retry=job.retry,
                timeout=job.timeout,
                start_in=start_in,
                interruptible=interruptible,
                resource_group=job.resource_group,
                parallel=job.parallel,
            )
        )
    specs = _check_plan_needs(specs)
    if not specs:
        raise PlanError([MSG_NO_JOBS])
    used = {spec.stage for spec in specs}
    return PipelinePlan(
        stages=tuple(stage for stage in config.stages if stage in used),
        jobs=tuple(specs),
        workflow_variables=workflow_vars,
    )


def _check_plan_needs(specs: list[JobSpec]) -> list[JobSpec]:
    names = {spec.name for spec in specs}
    checked: list[JobSpec] = []
    for spec in specs:
        if spec.needs is None:
            checked.append(spec)
            continue
        kept: list[Need] = []
        for need in spec.needs:
            if need.name in names:
                kept.append(need)
            elif not need.optional:
                raise PlanError(
                    [
                        f"'{spec.name}' job needs '{need.name}' job, but '{need.name}' does not "
                        "exist in the pipeline. This might be because of the only, except, or "
                        "rules keywords. To need a job that sometimes does not exist in the "
                        "pipeline, use needs:optional."
                    ]
                )
        checked.append(attrs.evolve(spec, needs=tuple(kept)))
    return checked


# -- lint answers -----------------------------------------------------------------------------------


def lint_jobs(config: Config) -> list[dict[str, Any]]:
    """``jobs`` of a static lint: stage order, then document order; empty when invalid."""
    if not config.valid:
        return []
    return [
        {
            "name": job.name,
            "stage": job.stage,
            "before_script": list(job.before_script),
            "script": list(job.script),
            "after_script": list(job.after_script),
            "tag_list": list(job.tags),
            "environment": job.environment.name if job.environment else None,
            "when": job.when,
            "allow_failure": job.allow_failure,
            "only": _plain(job.only) if job.only is not None else None,
            "except": _plain(job.except_) if job.except_ is not None else None,
        }
        for job in sorted(config.jobs, key=lambda j: (j.stage_idx, j.index))
    ]


def plan_jobs(pipeline_plan: PipelinePlan) -> list[dict[str, Any]]:
    """``jobs`` of a dry-run lint (the jobs the simulated pipeline would create)."""
    return [
        {
            "name": spec.name,
            "stage": spec.stage,
            "before_script": list(spec.before_script),
            "script": list(spec.script),
            "after_script": list(spec.after_script),
            "tag_list": list(spec.tag_list),
            "environment": spec.environment_name,
            "when": spec.when,
            "allow_failure": spec.allow_failure,
        }
        for spec in pipeline_plan.jobs
    ]


def instance_lint(
    config: Config, *, include_merged_yaml: bool = False, include_jobs: bool = False
) -> dict[str, Any]:
    """``POST /ci/lint``: ``{status, errors, warnings[, merged_yaml][, jobs]}``."""
    result: dict[str, Any] = {
        "status": "valid" if config.valid else "invalid",
        "errors": list(config.errors),
        "warnings": list(config.warnings),
    }
    if include_merged_yaml:
        result["merged_yaml"] = config.merged_yaml
    if include_jobs:
        result["jobs"] = lint_jobs(config)
    return result


def project_lint(config: Config, *, include_jobs: bool = False) -> dict[str, Any]:
    """``POST|GET /projects/:id/ci/lint`` (static): ``{valid, errors, warnings, merged_yaml, includes[, jobs]}``."""
    result: dict[str, Any] = {
        "valid": config.valid,
        "errors": list(config.errors),
        "warnings": list(config.warnings),
        "merged_yaml": config.merged_yaml,
        "includes": [dict(item) for item in config.includes],
    }
    if include_jobs:
        result["jobs"] = lint_jobs(config)
    return result


def dry_run_lint(
    config: Config,
    *,
    include_jobs: bool = False,
    ref: str,
    tag: bool = False,
    source: str = "push",
    variables: Mapping[str, str] | None = None,
    project_variables: Mapping[str, str] | None = None,
    default_branch: str = "main",
    project_path: str = "",
    sha: str | None = None,
    file_exists: ExistsCheck | None = None,
) -> dict[str, Any]:
    """Project lint with ``dry_run=true``: simulate creating a pipeline for ``ref``."""
    errors = list(config.errors)
    jobs: list[dict[str, Any]] = []
    if config.valid:
        try:
            simulated = plan(
                config,
                ref=ref,
                tag=tag,
                source=source,
                variables=variables,
                project_variables=project_variables,
                default_branch=default_branch,
                project_path=project_path,
                sha=sha,
                file_exists=file_exists,
            )
        except PlanError as exc:
            errors = exc.errors
        else:
            jobs = plan_jobs(simulated)
    result: dict[str, Any] = {
        "valid": not errors,
        "errors": errors,
        "warnings": list(config.warnings),
        "merged_yaml": config.merged_yaml,
        "includes": [dict(item) for item in config.includes],
    }
    if include_jobs:
        result["jobs"] = jobs
    return result
