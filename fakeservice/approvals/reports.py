"""When a ``report_approver`` rule needs its approvals, judged from the pipelines as the
service's report sync does.

* ``code_coverage``: required until the merge request's head pipeline has finished; then
  required when its coverage dropped below the target branch's latest pipeline (or the
  head has no coverage while the target has a pipeline), satisfied otherwise (no target
  pipeline, or no coverage on the target);
* ``license_scanning`` and ``vulnerability`` (scan findings): the simulated runner makes
  no license or security reports, so nothing is ever denied or found and these rules need
  no approvals.
"""

from __future__ import annotations

from fakeservice.ci.models import coverage_of, latest_for_ref
from fakeservice.core.store import Store
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.merge_requests.pipelines import head_pipeline

FINISHED = ("success", "failed", "canceled", "skipped")


def coverage_dropped(store: Store, record: MergeRequest) -> bool:
    head = head_pipeline(store, record)
    if head is None or head.status not in FINISHED:
        return True
    base = latest_for_ref(store, record.project_id, record.target_branch)
    if base is None:
        return False
    ours = coverage_of(store, head.id)
    if ours is None:
        return True
    theirs = coverage_of(store, base.id)
    return theirs is not None and ours < theirs


def required(store: Store, record: MergeRequest, report_type: str | None) -> bool:
    """Whether a report rule of ``report_type`` asks for its approvals on ``record`` now."""
    if report_type == "code_coverage":
        return coverage_dropped(store, record)
    return False
