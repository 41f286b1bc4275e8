"""Project export and import with real archives (seed 001 §2.9, §4.9)."""
