"""Comment payloads (``object_kind`` ``note``), with the commented issue, merge request
or commit."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import project_payload, short_repository, user_payload
from fakeservice.hooks.payloads.issues import issue_attributes
from fakeservice.hooks.payloads.merge_requests import merge_request_attributes
from fakeservice.projects.models import Project
from fakeservice.users.models import User


def note_payload(
    store: Store,
    project: Project,
    note: Any,
    noteable: Any,
    user: User | None,
    base_url: str,
) -> dict[str, Any]:
    web_url = f"{base_url}/{project.path_with_namespace}"
    kind = note.noteable_type
    if kind == "Issue":
        page = f"{web_url}/-/issues/{note.noteable_iid}"
    elif kind == "MergeRequest":
        page = f"{web_url}/-/merge_requests/{note.noteable_iid}"
    else:
        page = web_url
    out: dict[str, Any] = {
        "object_kind": "note",
        "event_type": "confidential_note" if note.confidential else "note",
        "user": user_payload(user, base_url),
        "project_id": project.id,
        "project": project_payload(store, project, base_url),
        "object_attributes": {
            "id": note.id,
            "note": note.body,
            "noteable_type": kind,
            "author_id": note.author_id,
            "created_at": iso(note.created_at),
            "updated_at": iso(note.updated_at),
            "project_id": project.id,
            "attachment": None,
            "line_code": None,
            "commit_id": None,
            "noteable_id": note.noteable_id,
            "system": note.system,
            "st_diff": None,
            "confidential": note.confidential,
            "internal": note.confidential,
            "url": f"{page}#note_{note.id}",
            "action": "create",
        },
        "repository": short_repository(store, project, base_url),
    }
    if kind == "Issue" and noteable is not None:
        out["issue"] = issue_attributes(store, project, noteable, None, base_url)
    elif kind == "MergeRequest" and noteable is not None:
        out["merge_request"] = merge_request_attributes(store, project, noteable, None, base_url)
    return out
