"""Tests for the CI configuration engine: loading, expansion, validation wording, lint, plans."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice.ci import config as ci
from fakeservice.ci.config import PlanError, parse, plan


def cfg(text: str, **kwargs: object) -> ci.Config:
    return parse(textwrap.dedent(text), **kwargs)  # type: ignore[arg-type]


def files(mapping: dict[str, str]) -> Callable[[str], str | None]:
    return lambda path: mapping.get(path)


# -- loading --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("", "Please provide content of .gitlab-ci.yml"),
        ("   \n\t\n", "Please provide content of .gitlab-ci.yml"),
        ("just a string", "Invalid configuration format"),
        ("- a\n- b\n", "Invalid configuration format"),
        ("# only a comment\n", "Invalid configuration format"),
        (
            "x: 1\n- y\n",
            "(<unknown>): did not find expected key while parsing a block mapping at line 1 column 1",
        ),
        (
            "a: b\n c: d\n",
            "(<unknown>): mapping values are not allowed in this context at line 2 column 3",
        ),
        (
            "foo: bar\nbaz\n",
            "(<unknown>): could not find expected ':' while scanning a simple key at line 2 column 1",
        ),
        (
            "build:\n  script: [a\n",
            "(<unknown>): did not find expected ',' or ']' while parsing a flow sequence "
            "at line 2 column 11",
        ),
        ("a: *missing\n", "Unknown alias: missing"),
    ],
)
def test_loading_errors_use_the_service_wording(content: str, error: str) -> None:
    result = parse(content)
    assert result.errors == (error,)
    assert not result.valid
    assert result.merged_yaml is None
    assert result.jobs == ()


_ALIAS_BOMB = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
    f"{name}: &{name} [{', '.join(['*' + prev] * 10)}]\n"
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)


@pytest.mark.parametrize(
    "content",
    [
        "a: &a [*a]\nbuild:\n  script: x\n",
        "x: " + "[" * 500 + "]" * 500 + "\nbuild:\n  script: x\n",
        _ALIAS_BOMB + "build:\n  script: x\n",
    ],
    ids=["self-alias", "deep", "alias-bomb"],
)
def test_yaml_too_deep_or_too_big_is_refused(content: str) -> None:
    assert parse(content).errors == ("The parsed YAML is too big",)
    included = parse(
        "include: ci/x.yml\nbuild:\n  script: x\n", read_local=files({"ci/x.yml": content})
    )
    assert included.errors == ("Included file `ci/x.yml` does not have valid YAML syntax!",)


def test_yaml_nesting_up_to_the_limit_loads() -> None:
    result = parse("x: " + "[" * 98 + "]" * 98 + "\nbuild:\n  script: x\n")
    assert result.errors == ("root config contains unknown keys: x",)


def test_yaml_anchors_merge_keys_and_dates_load_as_the_service_does() -> None:
    result = cfg(
        """
        .common: &common
          image: ruby
          tags: [docker]
        build:
          <<: *common
          script: echo 2024-01-01
          variables:
            RELEASED: 2024-01-01
        """
    )
    assert result.valid
    job = result.job("build")
    assert job is not None
    assert job.image == "ruby"
    assert job.tags == ("docker",)
    assert job.variables == {"RELEASED": "2024-01-01"}


# -- structural validation -----------------------------------------------------------------------

STRUCTURAL_CASES = [
    ("foo: bar\nbuild:\n  script: x\n", ["root config contains unknown keys: foo"]),
    (".hidden:\n  script: x\n", ["jobs config should contain at least one visible job"]),
    (
        "build:\n  stage: build\n",
        [
            "jobs build config should implement the script:, run:, or trigger: keyword",
            "jobs config should contain at least one visible job",
        ],
    ),
    (
        "Build_Job:\n  image: ruby\ntest:\n  script: x\n",
        ["jobs build_job config should implement the script:, run:, or trigger: keyword"],
    ),
    (
        "Build:\n  script: x\n  Foo: 1\n  bar: 2\n",
        ["jobs:build config contains unknown keys: foo, bar"],
    ),
    (
        "build:\n  script: x\n  tags: docker\n",
        ["jobs:build:tags config should be an array of strings"],
    ),
    (
        "build:\n  script: 42\n",
        [
            "jobs:build:script config should be a string or a nested array of strings "
            "up to 10 levels deep"
        ],
    ),
    ("build:\n  script: []\n", ["jobs:build script can't be blank"]),
    (
        "build:\n  script: x\n  when: later\n",
        ["jobs:build when should be one of: on_success, on_failure, always, manual, delayed"],
    ),
    (
        "build:\n  script: x\n  allow_failure: maybe\n",
        ["jobs:build allow failure should be a hash or a boolean value"],
    ),
    (
        "build:\n  script: x\n  allow_failure:\n    exit_codes: [a]\n",
        ["jobs:build:allow_failure exit codes should be an array of integers or an integer"],
    ),
    (
        "build:\n  script: x\n  only: [main]\n  rules:\n    - when: always\n",
        ["jobs:build config key may not be used with `rules`: only"],
    ),
    (
        "build:\n  script: x\n  rules:\n    - if: '$A ==='\n      when: sometimes\n      foo: 1\n",
        [
            "jobs:build:rules:rule if invalid expression syntax",
            "jobs:build:rules:rule when unknown value: sometimes",
            "jobs:build:rules:rule config contains unknown keys: foo",
        ],
    ),
    (
        "build:\n  script: x\n  artifacts:\n    paths: dist\n    expire_in: soon\n",
        [
            "jobs:build:artifacts paths should be an array of strings",
            "jobs:build:artifacts expire in should be a duration",
        ],
    ),
    (
        "variables: [A]\nbuild:\n  script: x\n",
        ["variables config should be a hash of key value pairs"],
    ),
    ("stages: build\nbuild:\n  script: x\n", ["stages config should be an array of strings"]),
    (
        "default:\n  script: x\nbuild:\n  script: x\n",
        ["default config contains unknown keys: script"],
    ),
    (
        "workflow:\n  rules:\n    - when: manual\nbuild:\n  script: x\n",
        ["workflow:rules:rule when unknown value: manual"],
    ),
    (
        "up:\n  trigger: group/other\n  when: delayed\n",
        ["jobs:up when should be one of: on_success, on_failure, always, manual"],
    ),
    (
        "a:\n  script: x\n  tags: t\nb:\n  script: 1\n",
        [
            "jobs:a:tags config should be an array of strings",
            "jobs:b:script config should be a string or a nested array of strings "
            "up to 10 levels deep",
        ],
    ),
]


@pytest.mark.parametrize(("content", "errors"), STRUCTURAL_CASES)
def test_structural_errors_have_the_exact_service_wording(content: str, errors: list[str]) -> None:
    result = parse(content)
    assert list(result.errors) == errors
    assert result.merged_yaml is not None  # structural errors still show the expanded config


def test_long_job_names_are_refused() -> None:
    name = "j" * 256
    result = parse(f"{name}:\n  script: x\n")
    assert result.errors == (f"jobs:{name} name is too long (maximum is 255 characters)",)
    assert parse(f"{'j' * 255}:\n  script: x\n").valid


# -- logical validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (
            "build:\n  script: x\n  stage: nope\n",
            "build job: chosen stage does not exist; available stages are "
            ".pre, build, test, deploy, .post",
        ),
        (
            "stages: [compile, check]\nbuild:\n  script: x\n",
            "build job: chosen stage does not exist; available stages are "
            ".pre, compile, check, .post",
        ),
        ("build:\n  script: x\n  needs: [nope]\n", "build job: undefined need: nope"),
        ("build:\n  script: x\n  dependencies: [nope]\n", "build job: undefined dependency: nope"),
        (
            "a:\n  stage: build\n  script: x\n  needs: [b]\nb:\n  stage: test\n  script: x\n",
            "a job: need b is not defined in current or prior stages",
        ),
        (
            "a:\n  script: x\n  needs: [b]\nb:\n  script: x\n  needs: [a]\n",
            "The pipeline has circular dependencies",
        ),
        (
            "deploy:\n  script: x\n  environment:\n    name: prod\n    on_stop: stop\n",
            "deploy job: on_stop job stop is not defined",
        ),
    ],
)
def test_logical_errors_stop_at_the_first(content: str, error: str) -> None:
    assert parse(content).errors == (error,)


def test_logical_validation_only_reports_the_first_error() -> None:
    result = cfg(
        """
        a:
          script: x
          stage: one
        b:
          script: x
          stage: two
        """
    )
    assert len(result.errors) == 1
    assert result.errors[0].startswith("a job: chosen stage does not exist")


def test_needs_within_the_same_stage_are_allowed() -> None:
    result = cfg(
        """
        a:
          script: x
        b:
          script: x
          needs: [a]
        """
    )
    assert result.valid


# -- warnings ------------------------------------------------------------------------------------

WARNING = (
    "jobs:rspec may allow multiple pipelines to run for a single action due to `rules:when` "
    "clause with no `workflow:rules` - read more: "
    "https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings"
)


def test_rules_when_without_workflow_rules_warns() -> None:
    result = cfg(
        """
        rspec:
          script: rspec
          rules:
            - if: $CI_COMMIT_TAG
            - when: always
        """
    )
    assert result.valid
    assert result.warnings == (WARNING,)


def test_no_warning_with_workflow_rules_or_when_never() -> None:
    with_workflow = cfg(
        """
        workflow:
          rules:
            - when: always
        rspec:
          script: rspec
          rules:
            - when: always
        """
    )
    never = cfg("rspec:\n  script: rspec\n  rules:\n    - when: never\n")
    assert with_workflow.warnings == ()
    assert never.warnings == ()


# -- include ----------------------------------------------------------------------------------------


def test_include_local_forms_and_merge_order() -> None:
    repo = {
        "ci/build.yml": "build:\n  stage: build\n  script: make\n  variables: {A: from-include}\n",
        "ci/test.yml": "test:\n  script: pytest\n",
        "ci/lint.yml": "include: ci/nested.yml\nlint:\n  script: ruff\n",
        "ci/nested.yml": "nested:\n  script: echo nested\n",
    }
    result = cfg(
        """
        include:
          - ci/build.yml
          - local: /ci/test.yml
          - local: ci/lint.yml
        build:
          variables:
            A: overridden
        """,
        read_local=files(repo),
        project_path="group/project",
        sha="abc123",
        project_url="http://fake.test/group/project",
    )
    assert result.valid, result.errors
    assert [job.name for job in result.jobs] == ["build", "test", "nested", "lint"]
    build = result.job("build")
    assert build is not None
    assert build.script == ("make",)
    assert build.variables == {"A": "overridden"}
    assert [i["location"] for i in result.includes] == [
        "ci/build.yml",
        "/ci/test.yml",
        "ci/lint.yml",
        "ci/nested.yml",
    ]
    assert result.includes[0] == {
        "type": "local",
        "location": "ci/build.yml",
        "blob": "http://fake.test/group/project/-/blob/abc123/ci/build.yml",
        "raw": "http://fake.test/group/project/-/raw/abc123/ci/build.yml",
        "extra": {},
        "context_project": "group/project",
        "context_sha": "abc123",
    }
    assert "include" not in (result.merged or {})


def test_include_string_shorthand() -> None:
    result = parse("include: ci/a.yml\n", read_local=files({"ci/a.yml": "a:\n  script: x\n"}))
    assert [job.name for job in result.jobs] == ["a"]


@pytest.mark.parametrize(
    ("content", "reader", "error"),
    [
        ("include: ci/x.yml\n", files({}), "Local file `ci/x.yml` does not exist!"),
        ("include: ci/x.yml\n", None, "Local file `ci/x.yml` does not have project!"),
        ("include: ci/x.yml\n", files({"ci/x.yml": "  \n"}), "Local file `ci/x.yml` is empty!"),
        ("include: ci/x\n", files({}), "Included file `ci/x` does not have YAML extension!"),
        (
            "include: ci/x.yml\n",
            files({"ci/x.yml": "a: [\n"}),
            "Included file `ci/x.yml` does not have valid YAML syntax!",
        ),
        (
            "include:\n  remote: http://url\n  local: /local/file.yml\n",
            files({}),
            'Include `{"remote":"http://url","local":"/local/file.yml"}` needs to match '
            "exactly one accessor!",
        ),
        (
            "include: https://example.com/ci.yml\n",
            files({}),
            "Remote file `https://example.com/ci.yml` could not be fetched because of a socket error!",
        ),
    ],
)
def test_include_errors(content: str, reader: object, error: str) -> None:
    result = parse(content + "build:\n  script: x\n", read_local=reader)  # type: ignore[arg-type]
    assert result.errors == (error,)
    assert result.merged_yaml is None


def test_include_project_files_through_a_reader() -> None:
    calls: list[tuple[str, str | None, str]] = []

    def read_project(project: str, ref: str | None, path: str) -> str | None:
        calls.append((project, ref, path))
        return "shared:\n  script: echo shared\n" if path == "templates/ci.yml" else None

    result = cfg(
        """
        include:
          - project: group/templates
            ref: v1
            file: /templates/ci.yml
        """,
        read_project=read_project,
    )
    assert result.valid
    assert calls == [("group/templates", "v1", "templates/ci.yml")]
    assert result.includes[0]["type"] == "file"
    assert result.includes[0]["extra"] == {"project": "group/templates", "ref": "v1"}


def test_recursive_includes_are_included_once() -> None:
    repo = {
        "a.yml": "include: b.yml\na:\n  script: x\n",
        "b.yml": "include: a.yml\nb:\n  script: y\n",
    }
    result = parse("include: a.yml\n", read_local=files(repo))
    assert result.valid
    assert sorted(job.name for job in result.jobs) == ["a", "b"]


def test_include_rules_are_evaluated_when_variables_are_given() -> None:
    content = "include:\n  - local: extra.yml\n    rules:\n      - if: $FLAG == 'on'\nbase:\n  script: x\n"
    repo = files({"extra.yml": "extra:\n  script: y\n"})
    assert [j.name for j in parse(content, read_local=repo, variables={"FLAG": "on"}).jobs] == [
        "extra",
        "base",
    ]
    assert [j.name for j in parse(content, read_local=repo, variables={}).jobs] == ["base"]


# -- extends, !reference, default ---------------------------------------------------------------------


def test_extends_deep_merges_hashes_and_replaces_arrays() -> None:
    result = cfg(
        """
        .base:
          image: ruby
          script: [echo base]
          variables: {A: "1", B: "1"}
          tags: [a, b]
        .other:
          variables: {C: "3"}
        build:
          extends: [.base, .other]
          script: [make]
          variables: {B: "2"}
          tags: [c]
        """
    )
    job = result.job("build")
    assert job is not None
    assert job.image == "ruby"
    assert job.script == ("make",)
    assert job.variables == {"A": "1", "B": "2", "C": "3"}
    assert job.tags == ("c",)


def test_merged_yaml_keeps_hidden_jobs_and_resolved_extends() -> None:
    result = cfg(
        """
        stages: [build]
        .base:
          image: ruby
        build:
          extends: .base
          stage: build
          script: make
        """
    )
    assert result.merged_yaml == (
        "---\n"
        "stages:\n- .pre\n- build\n- .post\n"
        ".base:\n  image: ruby\n"
        "build:\n  image: ruby\n  extends: .base\n  stage: build\n  script: make\n"
    )


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("build:\n  script: x\n  extends: .nope\n", "build: unknown keys in `extends` (.nope)"),
        (
            ".a:\n  extends: .b\n.b:\n  extends: .a\nbuild:\n  script: x\n  extends: .a\n",
            ".a: circular dependency detected in `extends`",
        ),
        (
            ".a: [1]\nbuild:\n  script: x\n  extends: .a\n",
            "build: invalid base hashes in `extends` (.a)",
        ),
    ],
)
def test_extends_errors(content: str, error: str) -> None:
    assert parse(content).errors == (error,)


def test_extends_nesting_too_deep() -> None:
    chain = "".join(f".t{i}:\n  extends: .t{i + 1}\n" for i in range(12)) + ".t12:\n  image: x\n"
    result = parse(chain + "build:\n  script: x\n  extends: .t0\n")
    assert result.errors == (".t11: nesting too deep in `extends`",)


def test_reference_tags_resolve_and_flatten_in_scripts() -> None:
    result = cfg(
        """
        .setup:
          script: [echo one, echo two]
        build:
          script:
            - !reference [.setup, script]
            - make
        """
    )
    job = result.job("build")
    assert job is not None
    assert job.script == ("echo one", "echo two", "make")


def test_missing_reference_is_an_error() -> None:
    result = parse("build:\n  script: !reference [.setup, script]\n")
    assert result.errors == ('!reference [".setup", "script"] could not be found',)


def test_default_and_legacy_globals_apply_unless_inherit_says_no() -> None:
    result = cfg(
        """
        image: legacy
        default:
          before_script: [echo before]
          tags: [shared]
          artifacts:
            expire_in: 1 week
        variables:
          GLOBAL: g
          OTHER: o
        a:
          script: x
        b:
          script: x
          image: own
          tags: [own]
          inherit:
            default: [before_script]
            variables: [OTHER]
        """
    )
    a, b = result.job("a"), result.job("b")
    assert a is not None and b is not None
    assert (a.image, a.before_script, a.tags) == ("legacy", ("echo before",), ("shared",))
    assert a.artifacts is not None and a.artifacts.expire_in_seconds == 7 * 86400
    assert a.inherited_variables == {"GLOBAL": "g", "OTHER": "o"}
    assert (b.image, b.before_script, b.tags, b.artifacts) == (
        "own",
        ("echo before",),
        ("own",),
        None,
    )
    assert b.inherited_variables == {"OTHER": "o"}


# -- lint answers ---------------------------------------------------------------------------------------

LINT_CONFIG = """
stages: [build, test, deploy]
unit:
  stage: test
  script: [pytest]
  tags: [docker]
compile:
  stage: build
  before_script: echo before
  script: make
  only: [main, /^release-.*$/]
  except:
    variables: [$SKIP]
deploy:
  stage: deploy
  script: ./deploy
  when: manual
  environment: production
"""


def test_lint_jobs_shape_and_order() -> None:
    result = parse(LINT_CONFIG)
    assert ci.lint_jobs(result) == [
        {
            "name": "compile",
            "stage": "build",
            "before_script": ["echo before"],
            "script": ["make"],
            "after_script": [],
            "tag_list": [],
            "environment": None,
            "when": "on_success",
            "allow_failure": False,
            "only": {"refs": ["main", "/^release-.*$/"]},
            "except": {"variables": ["$SKIP"]},
        },
        {
            "name": "unit",
            "stage": "test",
            "before_script": [],
            "script": ["pytest"],
            "after_script": [],
            "tag_list": ["docker"],
            "environment": None,
            "when": "on_success",
            "allow_failure": False,
            "only": {"refs": ["branches", "tags"]},
            "except": None,
        },
        {
            "name": "deploy",
            "stage": "deploy",
            "before_script": [],
            "script": ["./deploy"],
            "after_script": [],
            "tag_list": [],
            "environment": "production",
            "when": "manual",
            "allow_failure": True,
            "only": {"refs": ["branches", "tags"]},
            "except": None,
        },
    ]


def test_instance_lint_shape() -> None:
    result = parse(LINT_CONFIG)
    answer = ci.instance_lint(result)
    assert answer == {"status": "valid", "errors": [], "warnings": []}
    full = ci.instance_lint(result, include_merged_yaml=True, include_jobs=True)
    assert list(full) == ["status", "errors", "warnings", "merged_yaml", "jobs"]
    assert full["merged_yaml"].startswith("---\nstages:\n- .pre\n- build\n")
    invalid = ci.instance_lint(parse("build:\n  script: x\n  tags: t\n"), include_jobs=True)
    assert invalid == {
        "status": "invalid",
        "errors": ["jobs:build:tags config should be an array of strings"],
        "warnings": [],
        "jobs": [],
    }


def test_project_lint_shape() -> None:
    answer = ci.project_lint(parse("x: [\n"), include_jobs=True)
    assert list(answer) == ["valid", "errors", "warnings", "merged_yaml", "includes", "jobs"]
    assert answer["valid"] is False
    assert answer["merged_yaml"] is None
    assert answer["includes"] == []
    assert answer["jobs"] == []


def test_dry_run_lint_simulates_the_pipeline() -> None:
    content = parse("workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\nbuild:\n  script: x\n")
    answer = ci.dry_run_lint(content, include_jobs=True, ref="main")
    assert answer["valid"] is False
    assert answer["errors"] == ["Pipeline filtered out by workflow rules."]
    tagged = ci.dry_run_lint(content, include_jobs=True, ref="v1.0", tag=True)
    assert tagged["valid"] is True
    assert tagged["jobs"] == [
        {
            "name": "build",
            "stage": "test",
            "before_script": [],
            "script": ["x"],
            "after_script": [],
            "tag_list": [],
            "environment": None,
            "when": "on_success",
            "allow_failure": False,
        }
    ]


# -- planning -------------------------------------------------------------------------------------------


def names(pipeline_plan: ci.PipelinePlan) -> list[str]:
    return [job.name for job in pipeline_plan.jobs]


def test_plan_orders_jobs_by_stage_then_document() -> None:
    result = parse(LINT_CONFIG)
    main = plan(result, ref="main")
    assert names(main) == ["compile", "unit", "deploy"]
    assert main.stages == ("build", "test", "deploy")
    assert [j.stage_idx for j in main.jobs] == [1, 2, 3]
    deploy = main.jobs[2]
    assert (deploy.when, deploy.allow_failure, deploy.environment_name) == (
        "manual",
        True,
        "production",
    )


@pytest.mark.parametrize(
    ("ref", "tag", "variables", "expected"),
    [
        ("main", False, {}, ["compile", "unit", "deploy"]),
        ("release-2", False, {}, ["compile", "unit", "deploy"]),
        ("feature", False, {}, ["unit", "deploy"]),
        ("main", False, {"SKIP": "yes"}, ["unit", "deploy"]),
        ("v1.0", True, {}, ["unit", "deploy"]),
    ],
)
def test_only_and_except(
    ref: str, tag: bool, variables: dict[str, str], expected: list[str]
) -> None:
    assert names(plan(parse(LINT_CONFIG), ref=ref, tag=tag, variables=variables)) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [("api", ["api_only", "branches"]), ("web", ["branches"]), ("merge_request_event", ["mr"])],
)
def test_only_sources(source: str, expected: list[str]) -> None:
    result = cfg(
        """
        api_only:
          script: x
          only: [api]
        branches:
          script: x
        mr:
          script: x
          only: [merge_requests]
        """
    )
    assert names(plan(result, ref="main", source=source)) == expected


RULES_CONFIG = """
variables:
  DEPLOY_ENV: staging
job:
  script: x
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      variables: {DEPLOY_ENV: production}
    - if: '$CI_COMMIT_REF_NAME =~ /^feat-/i && ($MODE == "full" || $MODE == null)'
      when: manual
    - if: $CI_COMMIT_TAG
      when: delayed
      start_in: 2 hrs 20 min
      allow_failure: true
    - if: $CI_PIPELINE_SOURCE != "push" && $FORCE
"""


def test_rules_first_match_wins() -> None:
    result = parse(RULES_CONFIG)
    main = plan(result, ref="main").jobs[0]
    assert (main.when, main.allow_failure) == ("on_success", False)
    assert main.variables["DEPLOY_ENV"] == "production"

    feature = plan(result, ref="FEAT-login").jobs[0]
    assert (feature.when, feature.allow_failure) == ("manual", False)
    assert feature.variables["DEPLOY_ENV"] == "staging"
    assert names(plan(result, ref="feat-x", variables={"MODE": "full"})) == ["job"]

    tagged = plan(result, ref="v1", tag=True).jobs[0]
    assert (tagged.when, tagged.allow_failure, tagged.start_in) == ("delayed", True, 8400)

    forced = plan(result, ref="other", source="api", variables={"FORCE": "1"})
    assert names(forced) == ["job"]


def test_no_matching_rule_means_no_job_and_no_pipeline() -> None:
    result = parse(RULES_CONFIG)
    with pytest.raises(PlanError) as caught:
        plan(result, ref="other", variables={"MODE": "quick"})
    assert caught.value.errors == ["No stages / jobs for this pipeline."]
    with pytest.raises(PlanError):
        plan(result, ref="feat-x", variables={"MODE": "quick"})


def test_workflow_rules_filter_and_set_variables() -> None:
    result = cfg(
        """
        workflow:
          rules:
            - if: $CI_COMMIT_TAG
              when: never
            - if: $CI_COMMIT_BRANCH
              variables: {FROM_WORKFLOW: "yes", OVERRIDE: workflow}
        variables:
          OVERRIDE: global
        job:
          script: x
          variables: {JOB: "1"}
        """
    )
    job = plan(result, ref="main").jobs[0]
    assert job.variables == {"OVERRIDE": "workflow", "FROM_WORKFLOW": "yes", "JOB": "1"}
    assert job.variables == job.yaml_variables
    with pytest.raises(PlanError, match=r"^Pipeline filtered out by workflow rules\.$"):
        plan(result, ref="v1", tag=True)
    # with workflow rules there is no default `only`, so a merge request pipeline has jobs
    assert names(
        plan(result, ref="main", source="merge_request_event", predefined={"CI_COMMIT_BRANCH": "x"})
    ) == ["job"]


def test_variable_precedence() -> None:
    result = cfg(
        """
        variables: {V: global, G: global}
        job:
          script: x
          variables: {V: job, J: job}
          rules:
            - variables: {V: rule}
        """
    )
    job = plan(result, ref="main", project_variables={"P": "project", "V": "project"}).jobs[0]
    assert job.yaml_variables == {"V": "rule", "G": "global", "J": "job"}
    assert job.variables["V"] == "project"
    job = plan(
        result, ref="main", project_variables={"V": "project"}, variables={"V": "pipeline"}
    ).jobs[0]
    assert job.variables["V"] == "pipeline"


def test_needs_in_plans() -> None:
    result = cfg(
        """
        build:
          stage: build
          script: x
          rules:
            - if: $BUILD
        lint:
          stage: build
          script: x
        test:
          script: x
          needs: [lint, {job: build, optional: true, artifacts: false}]
        deploy:
          stage: deploy
          script: x
          needs: [build]
        """
    )
    with pytest.raises(PlanError) as caught:
        plan(result, ref="main")
    assert caught.value.errors == [
        "'deploy' job needs 'build' job, but 'build' does not exist in the pipeline. This might "
        "be because of the only, except, or rules keywords. To need a job that sometimes does "
        "not exist in the pipeline, use needs:optional."
    ]
    full = plan(result, ref="main", variables={"BUILD": "1"})
    test = next(j for j in full.jobs if j.name == "test")
    assert test.needs == (ci.Need("lint"), ci.Need("build", artifacts=False, optional=True))
    assert test.scheduling_type == "dag"
    no_build = cfg(
        "lint:\n  script: x\ntest:\n  script: x\n  needs: [lint, {job: build, optional: true}]\nbuild:\n  script: x\n  rules: [{if: $BUILD}]\n"
    )
    test = next(j for j in plan(no_build, ref="main").jobs if j.name == "test")
    assert test.need_names == ("lint",)


def test_parallel_and_matrix_expand_names_and_needs() -> None:
    result = cfg(
        """
        build:
          stage: build
          script: x
          parallel: 3
        test:
          script: x
          parallel:
            matrix:
              - PY: ["3.11", "3.12"]
                DB: [pg]
          needs: [build]
        """
    )
    assert names(plan(result, ref="main")) == [
        "build 1/3",
        "build 2/3",
        "build 3/3",
        "test: [3.11, pg]",
        "test: [3.12, pg]",
    ]
    matrix_job = result.job("test: [3.12, pg]")
    assert matrix_job is not None
    assert matrix_job.variables == {"PY": "3.12", "DB": "pg"}
    assert matrix_job.parallel == (2, 2)
    assert matrix_job.needs is not None
    assert [n.name for n in matrix_job.needs] == ["build 1/3", "build 2/3", "build 3/3"]


def test_artifacts_and_trigger_specs() -> None:
    result = cfg(
        """
        build:
          script: x
          artifacts:
            paths: [dist/]
            expire_in: 2 hrs 20 min
            when: always
            reports:
              junit: report.xml
        keep:
          script: x
          artifacts:
            paths: [out]
            expire_in: never
        default_expiry:
          script: x
          artifacts:
            paths: [out]
        child:
          trigger:
            include: ci/child.yml
            strategy: depend
        downstream:
          trigger: group/other
        """
    )
    build = result.job("build")
    assert build is not None and build.artifacts is not None
    assert build.artifacts.paths == ("dist/",)
    assert build.artifacts.expire_in_seconds == 2 * 3600 + 20 * 60
    assert build.artifacts.when == "always"
    assert build.artifacts.junit == ("report.xml",)
    keep, default_expiry = result.job("keep"), result.job("default_expiry")
    assert keep is not None and keep.artifacts is not None
    assert keep.artifacts.expire_in_seconds is None
    assert default_expiry is not None and default_expiry.artifacts is not None
    assert default_expiry.artifacts.expire_in_seconds == 30 * 86400
    child, downstream = result.job("child"), result.job("downstream")
    assert child is not None and child.kind == "bridge" and child.trigger is not None
    assert child.trigger.child and child.trigger.local_includes == ("ci/child.yml",)
    assert child.trigger.strategy == "depend"
    assert downstream is not None and downstream.trigger == ci.TriggerSpec(project="group/other")
    child_config = ci.parse_child(
        child.trigger, read_local=files({"ci/child.yml": "inner:\n  script: x\n"})
    )
    assert [j.name for j in child_config.jobs] == ["inner"]


def test_plan_refuses_invalid_configurations() -> None:
    with pytest.raises(PlanError) as caught:
        plan(parse("build:\n  script: x\n  tags: t\n"), ref="main")
    assert caught.value.errors == ["jobs:build:tags config should be an array of strings"]


# -- durations and expressions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1 week", 604800),
        ("30 days", 2592000),
        ("2 hrs 20 min", 8400),
        ("1h30m", 5400),
        ("3 mins 4 sec", 184),
        ("42", 42),
        ("1 day and 2 hours", 93600),
        ("1.5 hours", 5400),
    ],
)
def test_durations(text: str, seconds: int) -> None:
    assert ci.parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["soon", "", "1 fortnight", "hours"])
def test_bad_durations(text: str) -> None:
    with pytest.raises(ValueError):
        ci.parse_duration(text)


@given(st.integers(min_value=0, max_value=10_000), st.sampled_from(sorted(ci._DURATION_UNITS)))
def test_duration_units_scale(amount: int, unit: str) -> None:
    assert ci.parse_duration(f"{amount} {unit}") == amount * ci._DURATION_UNITS[unit]


@pytest.mark.parametrize(
    ("expression", "variables", "expected"),
    [
        ("$A", {"A": "x"}, True),
        ("$A", {"A": ""}, False),
        ("$A", {}, False),
        ("$A == null", {}, True),
        ("$A == null", {"A": ""}, False),
        ('$A == "x"', {"A": "x"}, True),
        ("$A != 'x'", {"A": "y"}, True),
        ("$A == $B", {"A": "1", "B": "1"}, True),
        ("$A =~ /^rel/", {"A": "release"}, True),
        ("$A =~ /^REL/i", {"A": "release"}, True),
        ("$A !~ /^rel/", {"A": "main"}, True),
        ("$A =~ $P", {"A": "release", "P": "/^rel/"}, True),
        ("$A =~ /x/", {}, False),
        ("$A && $B || $C", {"C": "1"}, True),
        ("$A && ($B || $C)", {"C": "1"}, False),
        ('$A == "1" && $B == "2"', {"A": "1", "B": "2"}, True),
    ],
)
def test_expressions(expression: str, variables: dict[str, str], expected: bool) -> None:
    assert ci.evaluate_expression(expression, variables) is expected


@pytest.mark.parametrize("expression", ["$A ===", "(", "$A == ", "&& $A", "$A == 'x' 'y'", "A"])
def test_invalid_expressions(expression: str) -> None:
    with pytest.raises(ci.ExpressionError):
        ci.compile_expression(expression)


safe_text = st.text(
    alphabet=st.characters(blacklist_characters="\"'\\", blacklist_categories=("Cs",)), max_size=12
)


@given(safe_text, safe_text)
def test_equality_matches_python(left: str, right: str) -> None:
    variables = {"A": left}
    assert ci.evaluate_expression(f'$A == "{right}"', variables) is (left == right)
    assert ci.evaluate_expression(f'$A != "{right}"', variables) is (left != right)


@given(st.booleans(), st.booleans(), st.booleans())
def test_boolean_operators_follow_precedence(a: bool, b: bool, c: bool) -> None:
    variables = {name: "1" for name, on in (("A", a), ("B", b), ("C", c)) if on}
    assert ci.evaluate_expression("$A || $B && $C", variables) is (a or (b and c))
    assert ci.evaluate_expression("($A || $B) && $C", variables) is ((a or b) and c)


# -- robustness: nothing a client sends may raise -------------------------------------------------------

_keys = st.sampled_from(
    [*ci.ROOT_KEYS, *ci.JOB_KEYS, *ci.RULE_KEYS, "job", ".hidden", "build", "matrix", "if", "local"]
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 300),
    st.text(max_size=6),
    st.sampled_from(
        ["$A == 'x'", "/re/", "manual", "delayed", "1 week", "never", "build", "a.yml"]
    ),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from(list(ci.JOB_KEYS)), _values, max_size=4), st.booleans())
def test_arbitrary_jobs_never_raise(job: dict[str, Any], bridge: bool) -> None:
    job = dict(job)
    if bridge:
        job.pop("script", None)
        job["trigger"] = job.get("trigger") or "group/project"
    else:
        job["script"] = job.get("script") or "x"
    text = yaml.safe_dump({"build": job, "other": {"script": "z"}})
    result = parse(text, read_local=files({"a.yml": "inc:\n  script: x\n"}))
    ci.instance_lint(result, include_merged_yaml=True, include_jobs=True)
    if result.valid:
        try:
            ci.plan_jobs(plan(result, ref="main", variables={"A": "x"}))
        except PlanError as exc:
            assert exc.errors


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_arbitrary_text_never_raises(text: str) -> None:
    result = parse(text)
    assert result.valid or result.errors
