"""Deploy tokens (instance, project and group) and deploy keys (project, instance list)."""
