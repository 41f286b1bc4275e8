"""Push rules of projects and groups, enforced on git pushes and API commits."""
