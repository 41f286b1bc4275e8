"""The instance itself: its plan, repository storages, application settings and background work."""
