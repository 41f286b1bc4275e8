"""Releases: a release per tag of a project, with its asset links."""
