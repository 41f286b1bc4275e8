"""Epics of groups (seed 001 §2.6, §3, §4.6; paid tier)."""
