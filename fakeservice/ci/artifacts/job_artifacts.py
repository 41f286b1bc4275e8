"""Job artifacts: what a finished build keeps, when it expires, and how it is found.

When a build finishes, the files its outcome produced are matched against the job's
``artifacts:paths`` (all of them with ``artifacts:untracked``: the simulated runner's
files are the work tree's untracked files), minus ``artifacts:exclude``, subject to
``artifacts:when``; the
matches become a real zip archive (``artifacts.zip``) and its gzipped metadata
(``metadata.gz``). Files matched by ``artifacts:reports:junit`` become the JUnit report
(``junit.xml.gz``) whatever the job's result, as the service collects test reports. The
log is kept as the ``trace`` artifact (``job.log``) once the job finished.

Archives, metadata and reports expire ``expire_in`` after the job finished (30 days by
default, ``never`` for none), measured on the service's clock; keeping the artifacts
clears the expiry. Deleting them removes everything but the log.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from collections.abc import Iterable, Mapping
from typing import Any

from fakeservice.ci.artifacts.archive import (
    InvalidArtifactPath,
    build_metadata,
    build_zip,
    gzip_bytes,
    normalize_member_path,
)
from fakeservice.ci.machines import FINISHED
from fakeservice.ci.models import (
    Job,
    Pipeline,
    jobs,
    latest_jobs,
    latest_with_status,
    pipeline_tree,
)
from fakeservice.core.store import Store

ARCHIVE_NAME = "artifacts.zip"
METADATA_NAME = "metadata.gz"
TRACE_NAME = "job.log"
JUNIT_NAME = "junit.xml.gz"
_GLOB = re.compile(r"[*?\[]")


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    out = []
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if pattern.startswith("**/", position):
            out.append("(?:.*/)?")
            position += 3
            continue
        if pattern.startswith("**", position):
            out.append(".*")
            position += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(char))
        position += 1
    return re.compile("".join(out))


def matches(path: str, patterns: Iterable[str]) -> bool:
    """Whether a file path is selected by any ``artifacts:paths``-style pattern.

    A plain path selects that file or everything below that directory; ``*`` and ``?``
    stay within one path segment, ``**`` crosses segments; a directory matched by a
    pattern brings everything below it.
    """
    for raw in patterns:
        pattern = raw.strip()
        while pattern.startswith("./"):
            pattern = pattern[2:]
        pattern = pattern.rstrip("/")
        if not pattern:
            continue
        if not _GLOB.search(pattern):
            if path == pattern or path.startswith(pattern + "/"):
                return True
            continue
        regex = _pattern_regex(pattern)
        parts = path.split("/")
        for depth in range(1, len(parts) + 1):
            if regex.fullmatch("/".join(parts[:depth])):
                return True
        if fnmatch.fnmatchcase(path, pattern):
            return True
    return False


def _safe(files: Mapping[str, bytes]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path, data in files.items():
        try:
            out[normalize_member_path(path)] = data
        except InvalidArtifactPath:
            continue
    return out


def collect_artifacts(
    store: Store, job: Job, produced: Mapping[str, bytes], now: dt.datetime
) -> None:
    """Store what a build that just finished leaves behind (see the module docstring)."""
    _collect(job, produced, now)
    jobs(store).reindex(job)


def _collect(job: Job, produced: Mapping[str, bytes], now: dt.datetime) -> None:
    spec = job.artifacts_spec
    if spec is None or job.status not in ("success", "failed"):
        return
    files = _safe(produced)
    wanted = (
        spec.when == "always"
        or (spec.when == "on_success" and job.status == "success")
        or (spec.when == "on_failure" and job.status == "failed")
    )
    if wanted and (spec.paths or spec.untracked):
        kept = {  # untracked: every file the runner made (git tracks none of them)
            path: data
            for path, data in sorted(files.items())
            if (spec.untracked or matches(path, spec.paths)) and not matches(path, spec.exclude)
        }
        if kept:
            job.archive = build_zip(kept, when=now)
            job.metadata = build_metadata(job.archive, when=now)
    reports = [data for path, data in sorted(files.items()) if matches(path, spec.junit)]
    if reports:
        job.junit_documents = tuple(reports)
        job.junit_gz = gzip_bytes(b"".join(reports), when=now)
    if (job.archive is not None or job.junit_gz is not None) and spec.expire_in_seconds:
        job.artifacts_expire_at = now + dt.timedelta(seconds=spec.expire_in_seconds)


def alive(job: Job, now: dt.datetime) -> bool:
    """Whether the job's archive, metadata and reports are still downloadable."""
    if job.artifacts_locked or job.artifacts_expire_at is None:
        return True
    return now < job.artifacts_expire_at


def archive_of(job: Job, now: dt.datetime) -> bytes | None:
    return job.archive if job.archive is not None and alive(job, now) else None


def junit_documents(job: Job, now: dt.datetime) -> tuple[bytes, ...]:
    return job.junit_documents if job.junit_gz is not None and alive(job, now) else ()


def trace_bytes(job: Job) -> bytes | None:
    if job.trace is None:
        return None
    return ("\n".join(job.trace) + "\n").encode()


def entries(job: Job, now: dt.datetime) -> list[dict[str, Any]]:
    """The ``artifacts`` array of a job: archive, metadata, trace, junit."""
    out: list[dict[str, Any]] = []
    live = alive(job, now)
    if job.archive is not None and live:
        out.append(_entry("archive", len(job.archive), ARCHIVE_NAME, "zip"))
        if job.metadata is not None:
            out.append(_entry("metadata", len(job.metadata), METADATA_NAME, "gzip"))
    log = trace_bytes(job)
    if log is not None and job.status in FINISHED:
        out.append(_entry("trace", len(log), TRACE_NAME, "raw"))
    if job.junit_gz is not None and live:
        out.append(_entry("junit", len(job.junit_gz), JUNIT_NAME, "gzip"))
    return out


def _entry(file_type: str, size: int, filename: str, file_format: str) -> dict[str, Any]:
    return {"file_type": file_type, "size": size, "filename": filename, "file_format": file_format}


def keep(store: Store, job: Job) -> None:
    """Keep the artifacts forever (``artifacts_expire_at`` becomes null)."""
    jobs(store).update(job, artifacts_locked=True, artifacts_expire_at=None)


def erase(store: Store, job: Job) -> None:
    """Delete every artifact of the job except its log."""
    jobs(store).update(
        job,
        archive=None,
        metadata=None,
        junit_documents=(),
        junit_gz=None,
        artifacts_expire_at=None,
        artifacts_locked=False,
    )


def live_archives(store: Store, now: dt.datetime) -> int:
    """How many jobs hold an archive still downloadable at ``now``, from the ``archives``
    index: every kept one plus the expiring ones whose expiry is after ``now``."""
    index = jobs(store).sorted["archives"]
    kept = len(index.parts.get("kept", ()))
    expiring = index.parts.get("expiring")
    if not expiring:
        return kept
    return kept + len(expiring) - expiring.bisect_right((now, float("inf")))


def find_by_ref(store: Store, project_id: int, ref: str, name: str, now: dt.datetime) -> Job | None:
    """The job ``name`` with an archive in the latest successful pipeline of ``ref``.

    The pipeline's own jobs come first, then its child pipelines' (parent before child).
    """
    latest: Pipeline | None = next(
        (p for p in latest_with_status(store, project_id, ref, "success") if p.parent_id is None),
        None,
    )
    if latest is None:
        return None
    for pipeline in pipeline_tree(store, latest):
        for job in latest_jobs(store, pipeline.id):
            if job.name == name and not job.is_bridge and archive_of(job, now) is not None:
                return job
    return None
