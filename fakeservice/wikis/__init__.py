"""Project and group wikis, each a git repository of pages (see models.py)."""
