"""Forks: a project's copy in another namespace, linked to its upstream."""
