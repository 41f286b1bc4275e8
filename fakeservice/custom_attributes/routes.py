"""Custom attribute endpoints."""
