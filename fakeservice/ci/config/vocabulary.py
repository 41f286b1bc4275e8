"""The CI vocabulary: stage names, allowed keys per entry, limits, the service's message
texts and the reader callback types :func:`~fakeservice.ci.config.parse` accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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
MAX_YAML_DEPTH = 100
MAX_YAML_NODES = 200_000
MAX_WARNINGS = 25
MAX_PARALLEL = 200

MSG_EMPTY = "Please provide content of .gitlab-ci.yml"
MSG_FORMAT = "Invalid configuration format"
MSG_TOO_BIG = "The parsed YAML is too big"
MSG_NO_VISIBLE_JOB = "jobs config should contain at least one visible job"
MSG_FILTERED = "Pipeline filtered out by workflow rules."
MSG_NO_JOBS = "No stages / jobs for this pipeline."
MSG_CIRCULAR_NEEDS = "The pipeline has circular dependencies"
WARNING_DOCS = "read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings"

LocalReader = Callable[[str], "str | None"]
ProjectReader = Callable[[str, "str | None", str], "str | None"]
ArtifactReader = Callable[[str, str], "str | None"]
ExistsCheck = Callable[[str], bool]
