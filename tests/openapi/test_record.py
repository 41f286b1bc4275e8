"""Recording: the answers of one process become a record file; the files of several
processes merge into what ``observed.json`` holds (statuses united, schemas merged)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fakeservice.web.schemas import record


def test_records_of_two_processes_merge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A recording run of the suite keeps its own records: work on a fresh mapping.
    monkeypatch.setattr(record, "_records", {})
    key = "GET /api/v4/things/:id"
    record.note(key, 200, "application/json", b'{"id": 1, "name": null}')
    record.note(key, 404, "application/json", b'{"message": "404 Not Found"}')
    first = {k: record._serialisable(v) for k, v in record._records.items()}
    record._records.clear()
    record.note(key, 200, "application/json", b'{"id": 2, "name": "x", "extra": true}')
    record.note(key, 403, "application/json", b'{"message": "403 Forbidden"}')
    second = {k: record._serialisable(v) for k, v in record._records.items()}
    (tmp_path / "a.json").write_text(json.dumps(first))
    (tmp_path / "b.json").write_text(json.dumps(second))
    merged = record.merge_files([tmp_path / "b.json", tmp_path / "a.json"])
    assert merged == {
        key: {
            "statuses": [200, 403, 404],
            "content_types": ["application/json"],
            "schema": {
                "type": "object",
                "properties": {
                    "extra": {"type": "boolean"},
                    "id": {"type": "integer"},
                    "name": {"type": ["string", "null"]},
                },
                "required": ["id", "name"],
            },
        }
    }
