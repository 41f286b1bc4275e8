"""Merge requests on real git (seed 001 §2.2, §3, §4.2)."""
