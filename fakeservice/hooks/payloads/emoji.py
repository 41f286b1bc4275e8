"""Emoji payloads (``object_kind`` ``emoji``, ``event_type`` ``award``): an emoji awarded
to an issue, a merge request or a comment, with the awarded record's attributes."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import project_payload, user_payload
from fakeservice.hooks.payloads.issues import issue_attributes
from fakeservice.hooks.payloads.merge_requests import merge_request_attributes
from fakeservice.projects.models import Project
from fakeservice.users.models import User


def emoji_payload(
    store: Store,
    project: Project,
    award: Any,
    awarded: Any,
    user: User | None,
    base_url: str,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "object_kind": "emoji",
        "event_type": "award",
        "user": user_payload(user, base_url),
        "project_id": project.id,
        "project": project_payload(store, project, base_url),
        "object_attributes": {
            "user_id": award.user_id,
            "created_at": iso(award.created_at),
            "id": award.id,
            "name": award.name,
            "awardable_type": award.awardable_type,
            "awardable_id": award.awardable_id,
            "updated_at": iso(award.updated_at),
        },
    }
    if award.awardable_type == "Issue":
        out["issue"] = issue_attributes(store, project, awarded, None, base_url)
    elif award.awardable_type == "MergeRequest":
        out["merge_request"] = merge_request_attributes(store, project, awarded, None, base_url)
    elif award.awardable_type == "Note":
        out["note"] = {
            "id": awarded.id,
            "note": awarded.body,
            "noteable_type": awarded.noteable_type,
            "noteable_id": awarded.noteable_id,
            "author_id": awarded.author_id,
            "created_at": iso(awarded.created_at),
            "updated_at": iso(awarded.updated_at),
            "project_id": awarded.project_id,
            "system": awarded.system,
        }
    return out
