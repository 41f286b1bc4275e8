"""Custom attributes of users, groups and projects (administrators)."""
