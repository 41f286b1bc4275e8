"""Topics endpoints: ``GET /topics`` (``search``, ``without_projects``), ``GET /topics/:id``
for everyone; create, update, delete and merge for administrators."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ApiError, NotFound, ValidationFailed
from fakeservice.groups.routes import fuzzy_match
from fakeservice.topics import models
from fakeservice.topics.models import Topic, topics
from fakeservice.topics.views import topic_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, Param
from fakeservice.web.routing import ADMIN, AreaRouter

api = AreaRouter("topics")


def find_topic_or_404(ctx: Context, key: Any) -> Topic:
    topic = topics(ctx.store).get(key)
    if topic is None:
        raise NotFound()
    return topic


@api.get(
    "/topics",
    params=(
        Param("search", STR),
        Param("without_projects", BOOL),
        Param("organization_id", INT),
    ),
    paginated=True,
)
def list_topics(ctx: Context) -> Any:
    """List topics, those with the most non-private projects first."""
    p = ctx.params
    selection = topics(ctx.store).select("by_popularity", ["all"])
    if p.get("search"):
        query = p["search"]
        selection = selection.filter(lambda t: fuzzy_match(query, (t.name, t.title)))
    if p.get("without_projects"):
        selection = selection.filter(lambda t: t.total_projects_count == 0)
    if p.get("organization_id") not in (None, 1):
        selection = selection.filter(lambda t: False)
    return ctx.paginate(selection, topic_view)


@api.get("/topics/:id", params=(Param("id", INT, required=True),))
def get_topic(ctx: Context) -> Any:
    """Get a topic."""
    return topic_view(find_topic_or_404(ctx, ctx.params["id"]))


@api.post(
    "/topics",
    params=(
        Param("name", STR, required=True),
        Param("title", STR, required=True),
        Param("description", STR),
        Param("organization_id", INT),
    ),
    auth=ADMIN,
)
def create(ctx: Context) -> Any:
    """Create a topic (administrators)."""
    p = ctx.params
    topic = models.create_topic(
        ctx.store, ctx.now, name=p["name"], title=p["title"], description=p.get("description")
    )
    return topic_view(topic)


@api.put(
    "/topics/:id",
    params=(
        Param("id", INT, required=True),
        Param("name", STR),
        Param("title", STR),
        Param("description", STR),
    ),
    auth=ADMIN,
)
def update(ctx: Context) -> Any:
    """Update a topic (administrators); a new name is the new name in every project."""
    p = ctx.params
    topic = find_topic_or_404(ctx, p["id"])
    name = p.get("name", topic.name)
    title = p.get("title", topic.title)
    description = p.get("description", topic.description)
    errors = models.topic_errors(
        ctx.store, name=name, title=title, description=description, exclude=topic.id
    )
    if errors:
        raise ValidationFailed(errors)
    name = name.strip()
    if name != topic.name:
        models.rename_in_projects(ctx.store, topic, name)
    topics(ctx.store).update(topic, name=name, title=title.strip(), description=description)
    return topic_view(topic)


@api.delete("/topics/:id", params=(Param("id", INT, required=True),), auth=ADMIN)
def delete(ctx: Context) -> Any:
    """Delete a topic (administrators); projects lose it."""
    models.delete_topic(ctx.store, find_topic_or_404(ctx, ctx.params["id"]))
    return None


@api.post(
    "/topics/merge",
    params=(
        Param("source_topic_id", INT, required=True),
        Param("target_topic_id", INT, required=True),
    ),
    auth=ADMIN,
)
def merge(ctx: Context) -> Any:
    """Merge a topic into another (administrators): its projects move to the target."""
    source = find_topic_or_404(ctx, ctx.params["source_topic_id"])
    target = find_topic_or_404(ctx, ctx.params["target_topic_id"])
    if source.id == target.id:
        raise ApiError(
            {"message": "The source topic and the target topic are identical."}, status=400
        )
    return topic_view(models.merge_topics(ctx.store, source, target))
