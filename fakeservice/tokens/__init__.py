"""Access tokens: personal, project, impersonation and OAuth tokens, and their routes."""
