"""Namespaces API: the caller's namespaces, lookups by id or full path, path availability."""
