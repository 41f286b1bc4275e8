"""Repository endpoints."""
