"""Access tokens beyond the basics: rotation of personal tokens, and project and group
access tokens with their bot users."""
