"""What the CI area does when other areas' records change: a project going deletes its
pipelines and their jobs; refs moving may create pipelines (:mod:`fakeservice.ci.pipelines.push`).
The CI area registers both listeners (``fakeservice/ci/area.py``)."""

from __future__ import annotations

from fakeservice.ci.models import pipelines
from fakeservice.ci.pipelines import operations as pipeline_ops
from fakeservice.core.store import Store
from fakeservice.projects.models import Project


def delete_pipelines(store: Store, project: Project) -> None:
    table = pipelines(store)
    for entry in list(table.sorted["roots_by_id"].part(project.id)):
        pipeline = table.get(entry[-1])
        if pipeline is not None:
            pipeline_ops.delete(store, pipeline)
