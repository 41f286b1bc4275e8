"""Projects endpoints."""
