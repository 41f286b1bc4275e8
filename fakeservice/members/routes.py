"""Members endpoints."""
