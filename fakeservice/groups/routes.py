"""Groups endpoints."""
