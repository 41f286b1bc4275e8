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

Modules (each holds one stage; this package re-exports the public API):

- :mod:`.vocabulary`: stage names, allowed keys, limits, message texts, reader types;
- :mod:`.errors`: :class:`PlanError`, :class:`ExpressionError` and the expansion error;
- :mod:`.records`: the attrs records (:class:`Config`, :class:`JobDef`, :class:`JobSpec`,
  :class:`PipelinePlan`, :class:`Need`, :class:`Rule`, :class:`ArtifactsSpec`, ...);
- :mod:`.values`: small value helpers shared by the stages;
- :mod:`.yaml_loader`: step 1; :mod:`.includes`: step 2; :mod:`.expand`: steps 3-5;
- :mod:`.validate`: step 6; :mod:`.normalize`: step 7; :mod:`.logical`: step 8;
- :mod:`.parsing`: :func:`parse` and :func:`parse_child`, which run the steps in order;
- :mod:`.durations`: human durations; :mod:`.expressions`: ``rules:if`` expressions;
- :mod:`.planning`: :func:`plan`; :mod:`.lint`: the lint answers;
- :mod:`.routes`: the lint endpoints (not re-exported: it is the CI area's web layer).
"""

from __future__ import annotations

from .durations import _DURATION_UNITS as _DURATION_UNITS  # used by tests/ci/test_config.py
from .durations import parse_duration, parse_expire_in
from .errors import ExpressionError, PlanError
from .expressions import compile_expression, evaluate_expression
from .lint import dry_run_lint, instance_lint, lint_jobs, plan_jobs, project_lint
from .parsing import parse, parse_child
from .planning import plan, predefined_variables, ref_slug
from .records import (
    ArtifactsSpec,
    Config,
    EnvironmentSpec,
    JobDef,
    JobSpec,
    Need,
    PipelinePlan,
    Reference,
    RetrySpec,
    Rule,
    TriggerSpec,
)
from .values import deep_merge
from .vocabulary import (
    ARTIFACTS_KEYS,
    ARTIFACTS_WHEN,
    BRIDGE_KEYS,
    BRIDGE_WHEN,
    DEFAULT_ARTIFACTS_EXPIRE_IN,
    DEFAULT_KEYS,
    DEFAULT_ONLY,
    DEFAULT_STAGE,
    DEFAULT_STAGES,
    ENVIRONMENT_KEYS,
    INCLUDE_ACCESSORS,
    INCLUDE_EXTRA_KEYS,
    INHERIT_KEYS,
    JOB_KEYS,
    JOB_WHEN,
    LEGACY_GLOBALS,
    MAX_INCLUDE_DEPTH,
    MAX_INCLUDES,
    MAX_JOB_NAME_LENGTH,
    MAX_NESTING_LEVELS,
    MAX_PARALLEL,
    MAX_WARNINGS,
    MSG_CIRCULAR_NEEDS,
    MSG_EMPTY,
    MSG_FILTERED,
    MSG_FORMAT,
    MSG_NO_JOBS,
    MSG_NO_VISIBLE_JOB,
    POLICY_KEYS,
    POST_STAGE,
    PRE_STAGE,
    PROCESSABLE_KEYS,
    RETRY_KEYS,
    ROOT_KEYS,
    RULE_KEYS,
    RULE_WHEN,
    TRIGGER_KEYS,
    WARNING_DOCS,
    WORKFLOW_KEYS,
    WORKFLOW_RULE_KEYS,
    WORKFLOW_WHEN,
    ArtifactReader,
    ExistsCheck,
    LocalReader,
    ProjectReader,
)

__all__ = [
    # .vocabulary
    "ARTIFACTS_KEYS",
    "ARTIFACTS_WHEN",
    "ArtifactReader",
    "BRIDGE_KEYS",
    "BRIDGE_WHEN",
    "DEFAULT_ARTIFACTS_EXPIRE_IN",
    "DEFAULT_KEYS",
    "DEFAULT_ONLY",
    "DEFAULT_STAGE",
    "DEFAULT_STAGES",
    "ENVIRONMENT_KEYS",
    "ExistsCheck",
    "INCLUDE_ACCESSORS",
    "INCLUDE_EXTRA_KEYS",
    "INHERIT_KEYS",
    "JOB_KEYS",
    "JOB_WHEN",
    "LEGACY_GLOBALS",
    "LocalReader",
    "MAX_INCLUDES",
    "MAX_INCLUDE_DEPTH",
    "MAX_JOB_NAME_LENGTH",
    "MAX_NESTING_LEVELS",
    "MAX_PARALLEL",
    "MAX_WARNINGS",
    "MSG_CIRCULAR_NEEDS",
    "MSG_EMPTY",
    "MSG_FILTERED",
    "MSG_FORMAT",
    "MSG_NO_JOBS",
    "MSG_NO_VISIBLE_JOB",
    "POLICY_KEYS",
    "POST_STAGE",
    "PRE_STAGE",
    "PROCESSABLE_KEYS",
    "ProjectReader",
    "RETRY_KEYS",
    "ROOT_KEYS",
    "RULE_KEYS",
    "RULE_WHEN",
    "TRIGGER_KEYS",
    "WARNING_DOCS",
    "WORKFLOW_KEYS",
    "WORKFLOW_RULE_KEYS",
    "WORKFLOW_WHEN",
    # .errors
    "ExpressionError",
    "PlanError",
    # .records
    "ArtifactsSpec",
    "Config",
    "EnvironmentSpec",
    "JobDef",
    "JobSpec",
    "Need",
    "PipelinePlan",
    "Reference",
    "RetrySpec",
    "Rule",
    "TriggerSpec",
    # .values
    "deep_merge",
    # .durations
    "parse_duration",
    "parse_expire_in",
    # .expressions
    "compile_expression",
    "evaluate_expression",
    # .parsing
    "parse",
    "parse_child",
    # .planning
    "plan",
    "predefined_variables",
    "ref_slug",
    # .lint
    "dry_run_lint",
    "instance_lint",
    "lint_jobs",
    "plan_jobs",
    "project_lint",
]
