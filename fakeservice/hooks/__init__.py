"""Webhooks of projects, groups and the instance, with real HTTP deliveries (httpx) and a
journal of what was delivered."""
