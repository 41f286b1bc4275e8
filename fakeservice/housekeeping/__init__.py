"""Repository housekeeping requests."""
