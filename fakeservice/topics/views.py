"""JSON shape of a topic."""

from __future__ import annotations

from typing import Any

from fakeservice.topics.models import Topic

ORGANIZATION_ID = 1


def topic_view(topic: Topic) -> dict[str, Any]:
    return {
        "id": topic.id,
        "name": topic.name,
        "title": topic.title,
        "description": topic.description,
        "total_projects_count": topic.total_projects_count,
        "organization_id": ORGANIZATION_ID,
        "avatar_url": None,
    }
