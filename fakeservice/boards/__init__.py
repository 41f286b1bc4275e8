"""Issue boards of projects and groups, with their lists."""
