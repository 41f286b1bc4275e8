"""Memberships of users in projects and groups, roles, and the access rules built on them."""
