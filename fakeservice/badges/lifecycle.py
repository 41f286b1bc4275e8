"""Badges follow project deletions: a deleted project's badges go with it."""

from __future__ import annotations

from fakeservice.badges.models import delete_project_badges
from fakeservice.projects.models import on_delete

on_delete(delete_project_badges)
