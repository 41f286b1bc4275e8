"""Project and group labels (seed 001 §2.2 ``labels``; the real labels endpoints)."""
