"""Pipeline test reports from the JUnit artifacts of the pipeline's latest builds.

Each build with a (non-expired) JUnit report contributes one suite named after the job;
parsing is done by :mod:`fakeservice.ci.artifacts.junit` (safe XML, the service's suite errors).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.artifacts.job_artifacts import junit_documents
from fakeservice.ci.artifacts.junit import JobTests, build_report, build_summary, load_job_tests
from fakeservice.ci.models import Pipeline, latest_jobs
from fakeservice.core.store import Store


def _tests(store: Store, pipeline: Pipeline, now: dt.datetime) -> list[JobTests]:
    found = []
    for job in latest_jobs(store, pipeline.id):
        documents = junit_documents(job, now)
        if not job.is_bridge and documents:
            found.append(load_job_tests(job.name, job.id, documents))
    return found


def report(store: Store, pipeline: Pipeline, now: dt.datetime) -> dict[str, Any]:
    return build_report(_tests(store, pipeline, now))


def summary(store: Store, pipeline: Pipeline, now: dt.datetime) -> dict[str, Any]:
    return build_summary(_tests(store, pipeline, now))
