"""Badges of projects and groups, with their placeholders rendered for a project."""
