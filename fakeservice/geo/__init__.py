"""Geo nodes and their status (seed 001 §2.9, §4.10; paid tier, self-managed)."""
