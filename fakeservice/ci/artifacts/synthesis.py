"""Default artifacts: the files a build makes when its outcome does not say which.

When a build finishes and neither its outcome nor the caller gave ``artifacts``, the
simulated runner makes one small file for each ``artifacts:paths`` entry and one JUnit
document for each ``artifacts:reports:junit`` entry, so that the archive, the single-file
downloads and the pipeline's test report have something plausible to serve:

* a directory (``public/``, or a last segment without a dot such as ``dist``) gets
  ``index.html``; a file path is made as it is;
* a glob is filled in: ``*`` and ``**`` become the job's name as a slug (``build``),
  ``**/`` disappears, ``?`` becomes ``0`` and ``[...]`` its first character
  (``dist/*.whl`` -> ``dist/build.whl``);
* contents name the job, its id, pipeline, ref and commit: HTML for ``.html``, JSON for
  ``.json``, text otherwise;
* a JUnit document holds one test case (classname: the stage, name: the job's name)
  that passes when the job succeeded and fails, with the failure reason, when it failed.

Paths with ``$`` (CI variables), absolute paths and paths climbing out with ``..`` are
left out. Everything depends only on the job, so the same requests give the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from fakeservice.ci.artifacts.job_artifacts import matches
from fakeservice.ci.machines import job_duration
from fakeservice.ci.models import Job

DIRECTORY_FILE = "index.html"
JUNIT_DIRECTORY_FILE = "junit.xml"
_SLUG_INVALID = re.compile(r"[^a-z0-9]+")
_CLASS = re.compile(r"\[([^\]]*)\]")


def job_slug(name: str) -> str:
    """The job's name as a path segment: lower case, ``-`` between words (``job`` if empty)."""
    slug = _SLUG_INVALID.sub("-", name.lower()).strip("-")[:63].strip("-")
    return slug or "job"


def _class_character(found: re.Match[str]) -> str:
    inside = found.group(1).lstrip("!^")
    return inside[0] if inside else "x"


def concrete_path(pattern: str, slug: str, directory_file: str) -> str | None:
    """A file path that ``pattern`` selects (see the module docstring), or None."""
    path = pattern.strip()
    while path.startswith("./"):
        path = path[2:]
    if not path or "$" in path or path.startswith(("/", "\\")):
        return None
    path = path.replace("**/", "").replace("**", slug).replace("*", slug).replace("?", "0")
    path = _CLASS.sub(_class_character, path)
    segments = [segment for segment in path.split("/") if segment not in ("", ".")]
    if not segments or ".." in segments:
        return None
    if path.endswith("/") or "." not in segments[-1]:
        segments.append(directory_file)
    return "/".join(segments)


def _describe(job: Job) -> str:
    return (
        f"Made by job {job.name} (#{job.id}) of pipeline #{job.pipeline_id} "
        f"for {job.ref} at {job.sha[:8]}."
    )


def _content(job: Job, path: str) -> bytes:
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    if suffix in ("html", "htm"):
        return (
            f"<!DOCTYPE html>\n<title>{escape(job.name)}</title>\n<p>{escape(_describe(job))}</p>\n"
        ).encode()
    if suffix == "json":
        record = {
            "job": job.name,
            "job_id": job.id,
            "pipeline_id": job.pipeline_id,
            "ref": job.ref,
            "sha": job.sha,
        }
        return (json.dumps(record, indent=2, sort_keys=True) + "\n").encode()
    return (_describe(job) + "\n").encode()


def junit_document(job: Job, name: str) -> bytes:
    """One JUnit document with a single case: passing, or failing when the job failed."""
    seconds = f"{job_duration(job, job.finished_at or job.created_at) or 0.0:.3f}"
    failed = job.status == "failed"
    reason = job.failure_reason or "script_failure"
    attributes = (
        f"classname={quoteattr(job.stage)} name={quoteattr(name)} time={quoteattr(seconds)}"
    )
    case = f"<testcase {attributes}"
    if failed:
        message = escape(f"Job {job.name} failed: {reason}")
        case += f"><failure message={quoteattr(reason)}>{message}</failure></testcase>"
    else:
        case += "/>"
    counts = f'tests="1" failures="{int(failed)}" errors="0" skipped="0" time="{seconds}"'
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<testsuites name={quoteattr(job.name)} {counts}>\n"
        f"  <testsuite name={quoteattr(job.name)} {counts}>\n"
        f"    {case}\n"
        "  </testsuite>\n"
        "</testsuites>\n"
    ).encode()


def _paths(patterns: Iterable[str], slug: str, directory_file: str) -> list[str]:
    found: list[str] = []
    for pattern in patterns:
        path = concrete_path(pattern, slug, directory_file)
        if path is not None and path not in found and matches(path, [pattern]):
            found.append(path)
    return found


def default_artifacts(job: Job) -> dict[str, bytes]:
    """The files a finished build makes by default for its ``artifacts:`` (maybe none)."""
    spec = job.artifacts_spec
    if spec is None:
        return {}
    slug = job_slug(job.name)
    files = {
        path: _content(job, path)
        for path in _paths(spec.paths, slug, DIRECTORY_FILE)
        if not matches(path, spec.exclude)
    }
    if spec.untracked:  # a file of the work tree that git does not track
        files.setdefault(f"{slug}.out", _content(job, f"{slug}.out"))
    reports = _paths(spec.junit, slug, JUNIT_DIRECTORY_FILE)
    for path in reports:
        name = job.name if len(reports) == 1 else f"{job.name} ({path})"
        files[path] = junit_document(job, name)
    return files
