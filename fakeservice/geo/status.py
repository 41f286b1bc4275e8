"""Geo node status: health, replication and, for each replicated kind, counters computed
from the fake's own records (repositories of projects, CI job artifacts, uploads,
snippets...), with percentages written ``"<n>.<nn>%"``.

A primary checksums what it holds (``*_checksummed_count`` = ``*_count``); an enabled
secondary has synced and verified everything (``*_synced_count`` = ``*_count``), a
disabled one nothing. Kinds the fake does not keep count 0.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.artifacts.job_artifacts import live_archives
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.geo import repositories
from fakeservice.geo.models import GeoNode
from fakeservice.meta.routes import REVISION, VERSION

KINDS = (
    "lfs_objects",
    "job_artifacts",
    "container_repositories",
    "design_repositories",
    "repositories",
    "wikis",
    "merge_request_diffs",
    "package_files",
    "pages_deployments",
    "terraform_state_versions",
    "snippet_repositories",
    "group_wiki_repositories",
    "pipeline_artifacts",
    "uploads",
)


def percentage(part: int, whole: int) -> str:
    """``part`` of ``whole`` as ``"<n>.<nn>%"`` (``"0.00%"`` of nothing)."""
    value = 0.0 if whole == 0 else 100.0 * part / whole
    return f"{value:.2f}%"


def counts(store: Store, now: dt.datetime) -> dict[str, int]:
    """How many records of each replicated kind the instance holds."""
    found = dict.fromkeys(KINDS, 0)
    found["repositories"] = repositories.count(store)
    found["job_artifacts"] = live_archives(store, now)
    return found


def kind_counters(kind: str, count: int, node: GeoNode) -> dict[str, Any]:
    done = count if node.primary or node.enabled else 0
    return {
        f"{kind}_count": count,
        f"{kind}_checksum_total_count": count,
        f"{kind}_checksummed_count": count,
        f"{kind}_checksum_failed_count": 0,
        f"{kind}_synced_count": None if node.primary else done,
        f"{kind}_failed_count": None if node.primary else 0,
        f"{kind}_registry_count": None if node.primary else count,
        f"{kind}_verification_total_count": None if node.primary else count,
        f"{kind}_verified_count": None if node.primary else done,
        f"{kind}_verification_failed_count": None if node.primary else 0,
        f"{kind}_synced_in_percentage": percentage(count if node.primary else done, count),
        f"{kind}_verified_in_percentage": percentage(count if node.primary else done, count),
    }


def status_view(node: GeoNode, totals: dict[str, int], now: dt.datetime) -> dict[str, Any]:
    stamp = int(now.timestamp())
    out: dict[str, Any] = {
        "geo_node_id": node.id,
        "healthy": True,
        "health": "Healthy",
        "health_status": "Healthy",
        "missing_oauth_application": False,
        "db_replication_lag_seconds": None if node.primary else 0,
        "replication_slots_count": 1 if node.primary else None,
        "replication_slots_used_count": 1 if node.primary else None,
        "replication_slots_used_in_percentage": percentage(1, 1) if node.primary else None,
        "replication_slots_max_retained_wal_bytes": 0 if node.primary else None,
        "last_event_id": 0,
        "last_event_timestamp": stamp,
        "cursor_last_event_id": None if node.primary else 0,
        "cursor_last_event_timestamp": None if node.primary else stamp,
        "last_successful_status_check_timestamp": stamp,
        "version": VERSION,
        "revision": REVISION,
        "storage_shards_match": True,
        "updated_at": iso(now),
    }
    for kind in KINDS:
        out.update(kind_counters(kind, totals[kind], node))
    return out
