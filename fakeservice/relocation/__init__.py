"""Moving projects and groups to another namespace (transfers)."""
