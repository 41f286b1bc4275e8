"""Merge request approvals (seed 001 §2.3, §4.3; paid tier, enabled here)."""
