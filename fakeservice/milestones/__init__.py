"""Project and group milestones (seed 001 §2.2 ``milestone``; the real milestones endpoints)."""
