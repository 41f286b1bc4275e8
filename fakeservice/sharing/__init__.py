"""Sharing projects and groups with groups."""
