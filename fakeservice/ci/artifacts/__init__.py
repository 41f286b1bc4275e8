"""CI artifacts: what builds keep (archives, metadata, logs, JUnit reports), default
artifacts, test reports, and the artifact endpoints."""
